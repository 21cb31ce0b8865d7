"""Rate limits on what a player sends: chat messages, moves and invitations. One mechanism: a
counter per player and action in the cache (Redis when there is one, so every web process counts
together), in fixed windows; past the limit the view answers 429 with the limit's message. The
limits (settings.RATE_LIMITS) are far above what a person playing ever sends; they stop a script.
Logins, sign-ups and password resets are allauth's (settings.ACCOUNT_RATE_LIMITS)."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from accounts.models import User

from .errors import GameError


def _refusal(action: str) -> str:
    return {
        "chat": _("You are writing too fast: wait a minute before the next message."),
        "move": _("You are moving faster than anyone plays: wait a minute, then go on."),
        "invitation": _("You have sent many invitations this past hour: wait a while first."),
        "league": _("You have started many leagues today: wait until tomorrow."),
        "api": _("Too many requests with this token: wait a minute."),
    }[action]


def rate_limit_consume(*, user: User, action: str, scope: str = "") -> None:
    """Count one `action` by `user` (within `scope`, e.g. a game); GameError(429) once the count
    in this window passes the limit for the action."""
    count, seconds = settings.RATE_LIMITS[action]
    now = time.time()
    window = int(now // seconds)
    key = f"rate:{action}:{user.pk}:{scope}:{window}"
    cache.add(key, 0, timeout=seconds + 1)
    try:
        used = cache.incr(key) or 0  # Redis not answering: nothing counted, nothing refused
    except ValueError:  # the window's key expired between add and incr: a new one
        cache.add(key, 1, timeout=seconds + 1)
        used = 1
    if used > count:
        retry_after = max(1, int((window + 1) * seconds - now) + 1)
        raise GameError(_refusal(action), status=429, retry_after=retry_after)
