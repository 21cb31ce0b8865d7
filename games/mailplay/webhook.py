"""Replies to turn mails from a mail provider's inbound webhook (django-anymail: Mailgun, Postmark,
SendGrid, Amazon SES, …): anymail checks the provider's signature and the webhook's basic-auth
secret, normalises the mail, and sends its `inbound` signal; this hands the mail's bytes to the one
inbound path, as the local SMTP server does (games/mailplay/smtp.py)."""

from __future__ import annotations

import re
from email.utils import getaddresses

from anymail.signals import inbound
from django.http import HttpResponse
from django.utils.translation import gettext as _

from .smtp import MAX_BYTES, receive_bytes

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
