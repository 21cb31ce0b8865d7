"""The signed names of one turn, for answering a turn mail: a reply address unique to the turn
(`play+<token>@…`) and the one-click links' tokens. A token names the game, the seat and the version
the mail showed, and for a link what it does; an HMAC of the site's secret key makes it impossible
to guess or alter. It is good for that turn only: once the game has moved on, its version is
stale, and a mail that arrives twice is played once (games/mailplay/inbound.py).

Lower case, digits and dashes only, and short: mail systems may fold an address's case, and a
local part holds at most 64 characters (RFC 5321)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "games.mailplay.turn"
# The line a turn mail puts under the space for the move: what follows it is the mail answered.
MARKER = "##"
MAC_LENGTH = 24  # hex digits: 96 bits
TOKEN = re.compile(r"^(\d{1,10})-(\d{1,2})-(\d{1,6})(?:-([a-z0-9.]{1,8}))?-([0-9a-f]{24})$")


@dataclass(frozen=True)
class TurnRef:
    """One turn of one seat: the game, the seat's index and the game's version the mail showed;
    `action` for a one-click link ("stock", "take", "d.7h" to discard, "o.qs" to go out)."""

    game_id: int
    seat: int
    version: int
    action: str = ""


def _mac(payload: str) -> str:
    return salted_hmac(SALT, payload, algorithm="sha256").hexdigest()[:MAC_LENGTH]


def turn_token(ref: TurnRef) -> str:
    parts = [str(ref.game_id), str(ref.seat), str(ref.version)]
    if ref.action:
        parts.append(ref.action.lower())
    payload = "-".join(parts)
    return f"{payload}-{_mac(payload)}"


def turn_read(token: str) -> TurnRef | None:
    """The turn a token names, or None when it is not one of ours (forged, altered, junk)."""
    match = TOKEN.match((token or "")[:80].strip().lower())
    if match is None:
        return None
    game_id, seat, version, action, mac = match.groups()
    payload = "-".join(part for part in (game_id, seat, version, action) if part)
    if not constant_time_compare(mac, _mac(payload)):
        return None
    return TurnRef(int(game_id), int(seat), int(version), action or "")


def reply_address(ref: TurnRef) -> str:
    """The address a reply to this turn's mail goes to: settings.MAIL_PLAY_ADDRESS with the
    turn's token after a "+" ("play+12-1-40-…@example.org")."""
    local, _at, domain = settings.MAIL_PLAY_ADDRESS.rpartition("@")
    return f"{local}+{turn_token(ref)}@{domain}"


def reply_read(address: str) -> TurnRef | None:
    """The turn an address we were sent to names, or None."""
    local, _at, domain = (address or "").strip().strip("<>").rpartition("@")
    base_local, _at, base_domain = settings.MAIL_PLAY_ADDRESS.rpartition("@")
    prefix, plus, token = local.partition("+")
    if not plus or prefix.lower() != base_local.lower() or domain.lower() != base_domain.lower():
        return None
    ref = turn_read(token)
    return ref if ref is not None and not ref.action else None
