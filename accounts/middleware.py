"""Each player sees times in their own zone (User.time_zone, accounts/zones.py)."""

from django.db import DatabaseError
from django.utils import timezone

from .zones import zone_of


class TimeZoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.activate(self._zone(request))
        try:
            return self.get_response(request)
        finally:
            # The thread serves others next (and tests call views in one thread): no zone lingers.
            timezone.deactivate()

    @staticmethod
    def _zone(request):
        """The signed-in player's zone, else UTC. Finding the player reads the database: while
        it is down, UTC, and the view decides (/healthz answers without it; a page gets the 503)."""
        try:
            user = getattr(request, "user", None)
            signed_in = user is not None and user.is_authenticated
        except DatabaseError:
            signed_in = False
        return zone_of(user) if signed_in else timezone.get_default_timezone()
