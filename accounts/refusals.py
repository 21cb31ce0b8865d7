"""Logins counted and refused by address, before anything else runs.

An address may post so many logins a minute and fail so many of them
(settings.LOGIN_ADDRESS_LIMITS). Past either, LoginRefusalMiddleware (first in MIDDLEWARE) answers
its logins with 429 from one cache read, before the session, CSRF, the user or allauth's view run:
a flood of refusals from a few addresses costs next to nothing, and pages do not wait behind it.
The counts are the site's own, in fixed windows in the cache (Redis in production, so every web
process counts together); allauth keeps the limits per account typed (settings.ACCOUNT_RATE_LIMITS,
accounts/adapter.py). Only a wrong password is a failure, so a right one never counts against its
address; a password reset forgets the address's failures."""

import ipaddress
import time

from allauth import app_settings
from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied

from .windows import Window, window_add, window_of


def address_of(request) -> str | None:
    """The client's address, as the limits count it: an IPv6 client holds a whole network
    (allauth's RATE_LIMIT_IPV6_PREFIX, /64), so it is counted as one."""
    try:
        address = get_adapter().get_client_ip(request)
    except PermissionDenied:  # no address to key by: allauth's own limits decide
        return None
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        prefix = app_settings.RATE_LIMIT_IPV6_PREFIX
        return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False).network_address)
    return address


def _window(action: str, address: str, now: float) -> tuple[Window, int]:
    """The address's window of `action` that `now` falls in, and how many it allows."""
    allowed, seconds = settings.LOGIN_ADDRESS_LIMITS[action]
    return window_of(f"login-address:{action}:{address}", seconds, now), allowed


def refused_until(request) -> float | None:
    """When the address may log in again, if it is over one of its limits now: one cache read."""
    address = address_of(request)
    if not address:
        return None
    now = time.time()
    windows = [_window(action, address, now) for action in settings.LOGIN_ADDRESS_LIMITS]
    counts = cache.get_many([window.key for window, _ in windows])
    ends = [window.ends for window, allowed in windows if counts.get(window.key, 0) >= allowed]
    return max(ends) if ends else None


def count(request, action: str) -> None:
    """One more login ("login") or wrong password ("login_failed") from the request's address."""
    if address := address_of(request):
        now = time.time()
        window_add(_window(action, address, now)[0], now)


def forget(request) -> None:
    """A password reset: the address's failures so far no longer hold it back."""
    if address := address_of(request):
        cache.delete(_window("login_failed", address, time.time())[0].key)


def _reset(sender, request, **kwargs) -> None:
    forget(request)


def connect() -> None:
    """A password reset forgets the failures of the address it was made from (the mail it sent
    proved who is there)."""
    from allauth.account.signals import password_reset

    password_reset.connect(_reset, dispatch_uid="refusals-forget-on-reset")
