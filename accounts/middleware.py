"""Each player sees times in their own zone (User.time_zone, accounts/zones.py)."""

from django.utils import timezone

from .zones import zone_of


class TimeZoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            timezone.activate(zone_of(user))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            # The thread serves others next (and tests call views in one thread): no zone lingers.
            timezone.deactivate()
