"""The one-click opt-in of a season's result mail: a signed token naming the player and their
entry of the season that ended, needing no login (like the unsubscribe link, tokens.py). The
link opens a page with a button; only its POST enters the player in the next season."""

from __future__ import annotations

from django.utils.crypto import constant_time_compare, salted_hmac

OPTIN_SALT = "games.leagues.optin"


def _mac(payload: str) -> str:
    return salted_hmac(OPTIN_SALT, payload, algorithm="sha256").hexdigest()[:20]


def optin_token(*, user_id: int, entry_id: int) -> str:
    payload = f"{user_id}.{entry_id}"
    return f"{payload}.{_mac(payload)}"


def optin_read(token: str) -> tuple[int, int] | None:
    """(user id, entry id) a token names, or None if it is not ours."""
    payload, _dot, mac = (token or "")[:80].rpartition(".")
    user_id, _dot, entry_id = payload.partition(".")
    if not (user_id.isdigit() and entry_id.isdigit()) or not constant_time_compare(
        mac, _mac(payload)
    ):
        return None
    return int(user_id), int(entry_id)
