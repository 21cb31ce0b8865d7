"""Replies to turn mails from a mail provider's inbound webhook (django-anymail: Mailgun, Postmark,
SendGrid, Amazon SES, …): anymail checks the provider's signature and the webhook's basic-auth
secret, normalises the mail, and sends its `inbound` signal; this hands the mail's bytes to the one
inbound path, as the local SMTP server does (games/mailplay/smtp.py)."""

from __future__ import annotations

import logging
import re
from email.utils import getaddresses
from functools import wraps

from anymail import urls as anymail_urls
from anymail.exceptions import AnymailConfigurationError
from anymail.signals import inbound
from django.conf import settings
from django.core import checks
from django.http import HttpResponse
from django.urls import URLPattern
from django.utils.datastructures import MultiValueDictKeyError
from django.utils.translation import gettext as _

from .smtp import MAX_BYTES, receive_bytes

logger = logging.getLogger(__name__)
# What a provider's post may add to the mail itself: its signature, envelope and fields.
POST_OVERHEAD_BYTES = 64_000


def inbound_received(sender, event, esp_name, **kwargs) -> None:
    message = event.message
    if message is None:
        return
    recipients = [message.envelope_recipient] if message.envelope_recipient else []
    if not recipients:
        headers = [str(value) for name in ("To", "Cc") for value in message.get_all(name, [])]
        recipients = [address for _name, address in getaddresses(headers)]
    receive_bytes(message.as_bytes(), recipients, sender_failed=sender_failed(message))


# What a provider's receiving server wrote of the sender's proofs: a "fail" of SPF or DKIM (a
# pass, or none, changes nothing: a sender can write a header claiming one).
AUTHENTICATION_HEADERS = ("Authentication-Results", "X-Mailgun-Spf", "X-Mailgun-Dkim-Check-Result")
FAILED = re.compile(r"(?:\b(?:spf|dkim)\s*=\s*(?:fail|softfail|permerror)\b|^\s*fail)", re.I)


def sender_failed(message) -> bool:
    """The provider reports that the mail failed SPF or DKIM: its From is not to be believed."""
    return any(
        FAILED.search(str(value))
        for name in AUTHENTICATION_HEADERS
        for value in message.get_all(name, [])
    )


def connect() -> None:
    inbound.connect(inbound_received, dispatch_uid="games.mailplay.webhook")
    checks.register(configuration_check)


def inbound_patterns() -> list[URLPattern]:
    """The URL of the configured provider's inbound webhook (config/urls.py mounts it once its
    basic-auth secret is set), answered as `answered` says; [] for a provider anymail lacks."""
    name = f"{settings.MAIL_PLAY_WEBHOOK_PROVIDER}_inbound_webhook"
    return [
        URLPattern(pattern.pattern, answered(pattern.callback), pattern.default_args, name)
        for pattern in anymail_urls.urlpatterns
        if pattern.name == name
    ]


def configuration_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """`manage.py check` fails where the webhook is mounted but its provider cannot take a
    post (its signing key unset, its package missing), rather than each post answering 503."""
    if not settings.ANYMAIL.get("WEBHOOK_SECRET"):
        return []
    provider = settings.MAIL_PLAY_WEBHOOK_PROVIDER
    patterns = inbound_patterns()
    if not patterns:
        return [checks.Error(f"django-anymail has no inbound webhook {provider!r}.",
                             hint="Set MAIL_PLAY_WEBHOOK_PROVIDER to one it has.",
                             id="games.E001")]  # fmt: skip
    view = patterns[0].callback
    try:
        view.view_class(**view.view_initkwargs)
    except AnymailConfigurationError as missing:
        return [checks.Error(f"The {provider} inbound webhook is mounted (ANYMAIL_WEBHOOK_SECRET "
                             f"is set) but cannot take mail: {missing}",
                             hint="Set the provider's key (docs/playing.md, \"Receiving mail\").",
                             id="games.E001")]  # fmt: skip
    return []


def answered(view):
    """The provider's webhook view, answering what it would answer with a 500: its setup
    incomplete, a 503 saying so (the provider retries, and the mail is played once it is set
    up; `manage.py check` names it too); a signed post without a field the provider always
    sends (Mailgun's without its mail), a 400."""

    @wraps(view)
    def answer(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except AnymailConfigurationError as missing:
            logger.error("The mail provider's inbound webhook is not configured: %s", missing)
            reason = "This site's inbound mail webhook is not configured yet: try again later."
            return HttpResponse(reason, status=503, content_type="text/plain; charset=utf-8")
        except MultiValueDictKeyError as lacking:
            reason = f"This post lacks the field {lacking} the provider sends with a mail."
            return HttpResponse(reason, status=400, content_type="text/plain; charset=utf-8")

    return answer


def mail_size_limit(get_response):
    """Middleware: a post to an inbound webhook larger than a mail the SMTP server takes
    (smtp.MAX_BYTES, 1 MB) is answered 413 with its reason before anything reads it, as the SMTP
    server answers 552: one limit, whichever way mail comes."""

    def middleware(request):
        if request.path.startswith("/anymail/"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > MAX_BYTES + POST_OVERHEAD_BYTES:
                reason = _("A reply with a move is a few kilobytes: this mail is over 1 MB.")
                return HttpResponse(reason, status=413, content_type="text/plain; charset=utf-8")
        return get_response(request)

    return middleware
