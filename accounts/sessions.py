"""Where a player is signed in: django-allauth's usersessions keeps a row for each login (its
address, its User-Agent and when it began); this reads them as "Firefox on Android", adds when
each was last used, and signs the player out everywhere else.

Last use is kept in the cache (Redis): the middleware reads it on each request and writes it at
most once a minute, so a page costs no query for it; a row's own time stands in where the cache has
none (after a Redis restart, it is the login's). Signing out everywhere else raises the account's
session epoch (accounts.models.User), which ends every other session, listed or not (one begun
before the site kept the list), and deletes the listed ones from the session store at once."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from allauth.usersessions.models import UserSession
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ua_parser import parse

from .models import User

SEEN_EVERY = 60  # seconds between two writes of a session's last use


def _seen_key(session_key: str) -> str:
    return f"session-seen:{session_key}"


def note_seen(request: HttpRequest) -> None:
    """Keep when the signed-in player's session was last used (the middleware, after each
    response). Only where the request read its session anyway, and from the session alone: no
    query, so that /healthz still answers for itself while the database is down."""
    session = request.session
    session_key = session.session_key
    if not session.accessed or not session_key or SESSION_KEY not in session:
        return
    now, last = time.time(), cache.get(_seen_key(session_key))
    if last is None or now - last >= SEEN_EVERY:
        cache.set(_seen_key(session_key), now, settings.SESSION_COOKIE_AGE)


@dataclass(frozen=True)
class SignedIn:
    key: str
    device: str
    ip: str
    started: datetime
    last_used: datetime
    current: bool


@lru_cache(maxsize=256)
def _browser_and_system(user_agent: str) -> tuple[str, str]:
    parsed = parse(user_agent)
    browser = parsed.user_agent.family if parsed.user_agent else "Other"
    system = parsed.os.family if parsed.os else "Other"
    return browser, system


def device_of(user_agent: str) -> str:
    """ "Firefox on Android", "Safari on iOS"; the raw text's start where nothing is known."""
    browser, system = _browser_and_system(user_agent)
    if browser != "Other" and system != "Other":
        return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    if browser != "Other":
        return browser
    return user_agent[:60] or _("an unknown browser")


def signed_in(request: HttpRequest) -> list[SignedIn]:
    """The player's sessions that are still signed in, this one first, then the latest used."""
    rows = UserSession.objects.purge_and_list(request.user)
    current_key = request.session.session_key
    if current_key and all(row.session_key != current_key for row in rows):
        # A session begun before the site kept the list: listed from now on.
        UserSession.objects.create_from_request(request)
        rows.append(UserSession.objects.get(session_key=current_key))
    seen = cache.get_many([_seen_key(row.session_key) for row in rows])
    found = []
    for row in rows:
        stamp = seen.get(_seen_key(row.session_key))
        last = datetime.fromtimestamp(stamp, UTC) if stamp else row.last_seen_at
        found.append(
            SignedIn(
                key=row.session_key,
                device=device_of(row.user_agent),
                ip=row.ip,
                started=row.created_at,
                last_used=max(last, row.last_seen_at),
                current=row.session_key == current_key,
            )
        )
    return sorted(found, key=lambda s: (not s.current, -s.last_used.timestamp()))


def sign_out_elsewhere(request: HttpRequest) -> int:
    """End every session of the player but this one; returns how many were listed."""
    user: User = request.user
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(session_epoch=F("session_epoch") + 1)
        user.refresh_from_db(fields=["session_epoch"])
        # This session takes the new hash and keeps its key (update_session_auth_hash would
        # cycle the key, leaving this session's row behind under the old one).
        request.session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    others = list(
        UserSession.objects.filter(user=user).exclude(session_key=request.session.session_key)
    )
    for row in others:
        row.end()
    cache.delete_many([_seen_key(row.session_key) for row in others])
    return len(others)
