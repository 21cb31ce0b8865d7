"""The site's own middleware.

- LoginRefusalMiddleware (first of all): a login or a sign-up posted from an address over its
  limits gets a 429 with Retry-After at once, from one cache read (accounts/refusals.py), its
  page saying how long to wait; else it is counted and goes through the stack.
- PlayerLocaleMiddleware: a signed-in player sees the site in their language (User.language) and
  times in their zone (User.time_zone, accounts/zones.py); a visitor gets the language Django's
  LocaleMiddleware found (the picker's cookie, else the browser's) and UTC.
- HashingBusyMiddleware: a request that would hash a password while the site hashes as many as it
  allows at once (accounts/hashing.py) gets a 503 with Retry-After, before anything was hashed.
- session_seen: when a signed-in player's session was last used, for "Where you are logged in".
- InvalidFormStatusMiddleware: refused forms answer a 4xx. django-allauth's views render an
  invalid form with 200; this site answers bad input with 400 and a refusal for guessing too fast
  with 429, so that a client (or a script trying passwords) is told plainly, and the page still
  shows the form and its message.
"""

import functools
import math
import time

from django.db import DatabaseError
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from . import refusals, sessions
from .adapter import AccountAdapter
from .forms import refusal_status
from .hashing import HashingBusy
from .zones import zone_of


class LoginRefusalMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        form = self._form(request)
        if form is None:
            return self.get_response(request)
        until = refusals.refused_until(request, form)
        if until is not None:
            return self.refusal(request, form, until)
        refusals.count(request, form)
        return self.get_response(request)

    @staticmethod
    def _form(request) -> str | None:
        if request.method != "POST":
            return None
        return {reverse("account_login"): "login", reverse("account_signup"): "signup"}.get(
            request.path
        )

    def refusal(self, request, form: str, until: float):
        # No session, no user, no database: the language from the cookie or the browser alone.
        language = translation.get_language_from_request(request)
        wait = max(1, math.ceil(until - time.time()))
        with translation.override(language):
            sentence = refusals.try_again_in(wait)
        response = HttpResponse(_refusal_page(form, language, sentence), status=429)
        response["Retry-After"] = str(wait)
        response["Cache-Control"] = "no-store"
        return response


@functools.lru_cache(maxsize=2048)
def _refusal_page(form: str, language: str, wait: str) -> str:
    """The page, rendered once for each form, language and wait as said (a few hundred)."""
    with translation.override(language):
        if form == "login":
            message = AccountAdapter.error_messages["too_many_login_attempts"]
        else:
            message = _("Many accounts were made from here in a short while.")
        return render_to_string(
            "429.html",
            {"message": message, "wait": wait, "again_url": reverse(f"account_{form}")},
        )


def session_seen(get_response):
    """When the signed-in player's session was last used, for their list of sessions
    (accounts/sessions.py): in the cache, at most once a minute, no query."""

    def middleware(request):
        response = get_response(request)
        sessions.note_seen(request)
        return response

    return middleware


class PlayerLocaleMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        player = self._player(request)
        timezone.activate(zone_of(player) if player else timezone.get_default_timezone())
        if player and player.language:
            translation.activate(player.language)
            request.LANGUAGE_CODE = player.language
        try:
            return self.get_response(request)
        finally:
            # The thread serves others next (and tests call views in one thread): no zone lingers.
            timezone.deactivate()

    @staticmethod
    def _player(request):
        """The signed-in player, or None. Finding them reads the database: while it is down,
        None, and the view decides (/healthz answers without it; a page gets the 503)."""
        try:
            user = getattr(request, "user", None)
            return user if user is not None and user.is_authenticated else None
        except DatabaseError:
            return None


class HashingBusyMiddleware:
    RETRY_AFTER_SECONDS = 2  # a few hashes' time

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, HashingBusy):
            return None
        # The page needs nothing but the template engine: a refusal must cost next to nothing.
        response = HttpResponse(render_to_string("accounts/busy.html"), status=503)
        response["Retry-After"] = str(self.RETRY_AFTER_SECONDS)
        return response


class InvalidFormStatusMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_template_response(self, request, response):
        form = (response.context_data or {}).get("form")
        if request.method != "POST" or response.status_code != 200 or form is None:
            return response
        if not getattr(form, "is_bound", False) or not form.errors:
            return response
        response.status_code = refusal_status(form)
        return response
