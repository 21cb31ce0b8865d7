"""The pages for errors.

- page_not_found: Django's 404 page, but a POST whose body Django refuses (too many fields, too
  large, malformed) is answered as Django answers it anywhere else, 400. The 404 page's CSRF
  decorator reads the body; were it refused there, inside the error page, Django would answer an
  unlogged 500.
- bad_request: the site's 400 page, without the CSRF check Django's own makes: with a csrftoken
  cookie that check reads the body, and a body Django refused (too large, at a mail webhook)
  raised again inside the error page, a 500. (A 403 is Django's view with the site's 403.html,
  a failed CSRF check its 403_csrf.html.)
- too_many_requests: allauth's limits (a password reset, a change of password or address...)
  answer through it (allauth's respond_429 takes ROOT_URLCONF's handler429): the site's page in
  the reader's language, and a wait no longer than the limit's longest window, as Retry-After
  too. allauth says neither which of its limits refused nor when a slot frees; the logins and
  sign-ups, counted by the site, say exactly (accounts/middleware.py).
- method_not_allowed_page: a 405 with nothing to show (a POST-only address, such as starting a
  practice game, typed into the address bar) gets the site's own page, where a browser would
  show its own error; under /api/ a JSON `{"detail": …}`, as the API refuses everything.
- server_error: for an error nobody meant, a styled 503 'back in a moment' while the database is
  unreachable (a restart, a failover), a styled 500 otherwise. Neither touches the database. It
  logs the error with its traceback, so that every 500 is logged, also one raised by an error
  page (which Django logs without its traceback).
"""

import logging
import sys

from allauth.account import app_settings as account_settings
from allauth.mfa import app_settings as mfa_settings
from django.core.exceptions import SuspiciousOperation
from django.core.handlers.exception import response_for_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views import defaults

from accounts import refusals

RETRY_AFTER_SECONDS = 30
request_logger = logging.getLogger("django.request")


def page_not_found(request, exception):
    try:
        request.POST  # noqa: B018 (read here, where a refusal still answers as Django means)
    except (SuspiciousOperation, MultiPartParserError) as refused:
        return response_for_exception(request, refused)
    return defaults.page_not_found(request, exception)


def bad_request(request, exception):
    return HttpResponseBadRequest(render_to_string("400.html"))


# The address's name -> allauth's limit that guards it ("app.action"; settings.ACCOUNT_RATE_LIMITS).
ALLAUTH_LIMITS = {
    "account_reset_password": "account.reset_password",
    "account_reset_password_from_key": "account.reset_password_from_key",
    "account_change_password": "account.change_password",
    "account_set_password": "account.change_password",
    "account_email": "account.manage_email",
    "account_reauthenticate": "account.reauthenticate",
    "mfa_login_webauthn": "mfa.webauthn_login",
}
SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def longest_window(rates: str) -> int:
    """The longest window of allauth's rates ("10/m/ip,3/m/key,10/d/key": a day), in seconds:
    waiting that long frees a slot of every one of them."""
    windows = [rate.split("/")[1] for rate in rates.split(",") if rate.strip()]
    return max((int(float(w[:-1] or 1) * SECONDS[w[-1]]) for w in windows), default=60)


def too_many_requests(request):
    name = getattr(request.resolver_match, "url_name", None)
    app, _dot, action = ALLAUTH_LIMITS.get(name or "", "").partition(".")
    limits = {"account": account_settings, "mfa": mfa_settings}.get(app)
    wait = longest_window(limits.RATE_LIMITS.get(action) or "" if limits else "")
    context = {
        "message": gettext("Many requests of this kind came from here in a short while."),
        "wait": refusals.try_again_in(wait),
        "again_url": request.path,
    }
    response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response


def method_not_allowed_page(get_response):
    """Middleware: the site's page for an empty 405 to a browser's visit (not to htmx, whose
    request came from a page that shows its own answer)."""

    def middleware(request):
        response = get_response(request)
        if response.status_code != 405:
            return response
        api = request.path.startswith("/api/")
        if api and not response["Content-Type"].startswith("application/json"):
            # The API refuses in JSON, as everywhere else (ninja's 405 is a line of text).
            allow = response["Allow"]
            detail = f"{request.method} is not allowed here: use {allow}."
            page = JsonResponse({"detail": detail}, status=405)
            page["Allow"] = allow
            return page
        if api or response.content or "HX-Request" in request.headers:
            return response
        page = render(request, "405.html", status=405)
        page["Allow"] = response["Allow"]
        return page

    return middleware


def server_error(request):
    failure = sys.exception()
    if isinstance(failure, OperationalError | InterfaceError):
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    else:
        response = HttpResponse(render_to_string("500.html"), status=500)
    request_logger.error(
        "%s: %s", response.reason_phrase, request.path, exc_info=failure,
        extra={"status_code": response.status_code, "request": request},
    )  # fmt: skip
    # Logged once: Django logs a view's error again after this page, without knowing it was.
    response._has_been_logged = True
    return response
