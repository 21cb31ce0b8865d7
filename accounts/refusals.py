"""Logins refused by address, remembered so that the next ones cost next to nothing.

While an address is over allauth's per-address login limits (the "ip" rates of "login" and
"login_failed" in settings.ACCOUNT_RATE_LIMITS), every login it posts is refused with a 429, but
only after the whole middleware stack (session, CSRF, user, locale...) and allauth's view: a flood
of such refusals from a few addresses kept the web processes busy and pages waited behind them.
When the stack answers a login with 429, `remember` reads the address's histories under allauth's
own keys and, if one of them is full, stores the moment the last full one frees a place; until
then LoginRefusalMiddleware (first in MIDDLEWARE) answers that address's logins at once, from one
cache read. Never longer than allauth would refuse: the moment is when the address's own counts
let a login through again, and a successful login or a password reset that hands counts back
forgets the refusal (accounts/adapter.py)."""

import time

from allauth.core.internal.ratelimit import get_cache_key, get_ip, get_rates
from django.core.cache import cache
from django.core.exceptions import PermissionDenied

APP = "allauth.account"
ACTIONS = ("login", "login_failed")


def _key(address: str) -> str:
    return f"login-refused:{address}"


def address_of(request) -> str | None:
    try:
        return get_ip(request)
    except PermissionDenied:  # no address to key by: the stack and its limits decide
        return None


def refused_until(request) -> float | None:
    """When the address's remembered refusal ends, if it has not yet ended: one cache read."""
    address = address_of(request)
    until = cache.get(_key(address)) if address else None
    return until if until is not None and until > time.time() else None


def remember(request) -> None:
    """After a 429 to a login: if the address is over one of its own limits, remember until when."""
    address = address_of(request)
    if not address:
        return
    now = time.time()
    ends = []
    for action in ACTIONS:
        for rate in get_rates(app=APP, action=action):
            if rate.per != "ip":
                continue
            key = get_cache_key(request, app=APP, action=action, rate=rate)
            live = sorted((t for t in cache.get(key, []) if t > now - rate.duration), reverse=True)
            if len(live) >= rate.amount:
                # Refused until the newest `amount` hits are fewer than `amount` in the window.
                ends.append(live[rate.amount - 1] + rate.duration)
    if ends:
        until = max(ends)  # allauth refuses while any of them is full
        cache.set(_key(address), until, timeout=max(1, int(until - now) + 1))


def forget(request) -> None:
    """Counts were handed back (a right password, a reset): the address may log in again."""
    if address := address_of(request):
        cache.delete(_key(address))
