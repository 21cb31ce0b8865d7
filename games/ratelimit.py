"""Rate limits on what a player sends: chat messages, moves and invitations. One mechanism: a
counter per player and action in the cache (Redis when there is one, so every web process counts
together), in fixed windows; past the limit the view answers 429 with the limit's message and
how long is left of the window (the API in Retry-After too). The limits (settings.RATE_LIMITS)
are far above what a person playing ever sends; they stop a script. Logins and sign-ups are
counted per address by accounts/refusals.py and per account by allauth, password resets by
allauth (settings.ACCOUNT_RATE_LIMITS)."""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.refusals import try_again_in
from accounts.windows import window_add, window_of

from .errors import GameError


def _refusal(action: str) -> str:
    return {
        "chat": _("You are writing too fast: wait a minute before the next message."),
        "move": _("You are moving faster than anyone plays: wait a minute, then go on."),
        "invitation": _("You have sent many invitations this past hour: wait a while first."),
        "league": _("You have started many leagues today: wait until tomorrow."),
        "api": _("Too many requests with this token: wait a minute."),
        "advice": _("You are asking the hard bot faster than you can play: wait a minute."),
    }[action]


def rate_limit_consume(*, user: User, action: str, scope: str = "") -> None:
    """Count one `action` by `user` (within `scope`, e.g. a game); GameError(429) once the count
    in this window passes the limit for the action."""
    count, seconds = settings.RATE_LIMITS[action]
    now = time.time()
    window = window_of(f"rate:{action}:{user.pk}:{scope}", seconds, now)
    if window_add(window, now) > count:
        retry_after = max(1, math.ceil(window.ends - now))
        message = f"{_refusal(action)} {try_again_in(retry_after)}"
        raise GameError(message, status=429, retry_after=retry_after)
