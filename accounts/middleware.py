"""The site's own middleware.

- PlayerLocaleMiddleware: a signed-in player sees the site in their language (User.language) and
  times in their zone (User.time_zone, accounts/zones.py); a visitor gets the language Django's
  LocaleMiddleware found (the picker's cookie, else the browser's) and UTC.
- InvalidFormStatusMiddleware: refused forms answer a 4xx. django-allauth's views render an
  invalid form with 200; this site answers bad input with 400 and a refusal for guessing too fast
  with 429, so that a client (or a script trying passwords) is told plainly, and the page still
  shows the form and its message.
"""

from django.db import DatabaseError
from django.utils import timezone, translation

from .forms import refusal_status
from .zones import zone_of


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
