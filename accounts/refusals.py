"""Logins and sign-ups counted and refused by address, before anything else runs; and how long a
refusal asks to wait, in words.

An address may post so many logins a minute and fail so many of them
(settings.LOGIN_ADDRESS_LIMITS), and post so many sign-ups a minute and an hour
(settings.SIGNUP_ADDRESS_LIMITS). Past any, LoginRefusalMiddleware (first in MIDDLEWARE) answers
its posts of that form with 429 and the time left in the window, from one cache read, before the
session, CSRF, the user or allauth's view run: a flood of refusals from a few addresses costs next
to nothing, and pages do not wait behind it. The counts are the site's own, in fixed windows in
the cache (Redis in production, so every web process counts together); allauth keeps the limits
per account typed (settings.ACCOUNT_RATE_LIMITS, accounts/adapter.py). Only a wrong password is a
failure, so a right one never counts against its address; a password reset forgets the address's
failures."""

import ipaddress
import math
import time

from allauth import app_settings
from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.utils.translation import ngettext

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


# What each form's posts are counted against: every post, and (a login's) the wrong passwords.
FORMS = {"login": ("login", "login_failed"), "signup": ("signup",)}


def _limits(action: str) -> list[tuple[int, int]]:
    """(how many, in how many seconds) that the address may post of `action`."""
    if action == "signup":
        return list(settings.SIGNUP_ADDRESS_LIMITS)
    return [settings.LOGIN_ADDRESS_LIMITS[action]]


def _windows(action: str, address: str, now: float) -> list[tuple[Window, int]]:
    """The address's windows of `action` that `now` falls in, and how many each allows."""
    return [
        (window_of(f"address:{action}:{seconds}:{address}", seconds, now), allowed)
        for allowed, seconds in _limits(action)
    ]


def refused_until(request, form: str = "login") -> float | None:
    """When the address may post `form` ("login", "signup") again, if it is over one of its limits
    now: one cache read."""
    address = address_of(request)
    if not address:
        return None
    now = time.time()
    windows = [pair for action in FORMS[form] for pair in _windows(action, address, now)]
    counts = cache.get_many([window.key for window, _ in windows])
    ends = [window.ends for window, allowed in windows if counts.get(window.key, 0) >= allowed]
    return max(ends) if ends else None


def count(request, action: str) -> None:
    """One more login ("login"), wrong password ("login_failed") or sign-up ("signup") from the
    request's address."""
    if address := address_of(request):
        now = time.time()
        for window, _allowed in _windows(action, address, now):
            window_add(window, now)


def forget(request) -> None:
    """A password reset: the address's failures so far no longer hold it back."""
    if address := address_of(request):
        cache.delete_many([w.key for w, _ in _windows("login_failed", address, time.time())])


def try_again_in(seconds: float) -> str:
    """How long a refusal asks to wait, as a sentence in the active language: seconds up to a
    minute, then minutes up to an hour and a half, then hours, each rounded up."""
    seconds = max(1, math.ceil(seconds))
    if seconds < 60:
        return ngettext(
            "Try again in %(count)d second.", "Try again in %(count)d seconds.", seconds
        ) % {"count": seconds}
    minutes = math.ceil(seconds / 60)
    if minutes <= 90:
        return ngettext(
            "Try again in %(count)d minute.", "Try again in %(count)d minutes.", minutes
        ) % {"count": minutes}
    hours = math.ceil(seconds / 3600)
    return ngettext("Try again in %(count)d hour.", "Try again in %(count)d hours.", hours) % {
        "count": hours
    }


def _reset(sender, request, **kwargs) -> None:
    forget(request)


def connect() -> None:
    """A password reset forgets the failures of the address it was made from (the mail it sent
    proved who is there)."""
    from allauth.account.signals import password_reset

    password_reset.connect(_reset, dispatch_uid="refusals-forget-on-reset")
