"""A new game's settings, checked once for every door that makes one (the New game form, the
API): each a choice the form offers, or GameError (400) naming the one that is not. What comes
out is services.game_create's arguments."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import gettext as _

from accounts.models import BotLevel

from .engine import BOTS, Rules
from .errors import GameError
from .models import MAX_TIMEOUTS_LIMIT, TIME_PER_MOVE_DAYS

# The rules' on/off switches, as the form and the API name them.
VARIANTS = (
    "aces_high",
    "face_cards_by_rank",
    "wild_penalty_15",
    "one_wild_per_meld",
    "all_wild_melds",
    "jokers",
    "double_face_rounds",
    "redemption",
)
ROUNDS = ("classic", "extended", "up_and_down")
VISIBILITIES = ("listed", "friends", "private")
SEAT_COUNTS = range(2, 9)


def _one_of(value, allowed: Iterable, what: str):
    allowed = tuple(allowed)
    if value not in allowed:
        raise GameError(
            _("%(what)s: choose one of %(choices)s.")
            % {"what": what, "choices": ", ".join(str(a) for a in allowed if a not in ("", None))}
        )
    return value


def new_game(
    *,
    seat_count: int,
    time_per_move_days: int | None,
    max_timeouts: int,
    visibility: str,
    rounds: str,
    variants: Iterable[str] = (),
    start_when_full: bool = True,
    bots: str | None = None,
    seats: Sequence[str | None] = (),
) -> dict:
    """services.game_create's arguments for these settings (`seats`: the bot level for seats 2,
    3, …, or None/"" for a person; `bots`: the level that fills the seats left to people)."""
    _one_of(seat_count, SEAT_COUNTS, _("Players"))
    _one_of(time_per_move_days, (None, *TIME_PER_MOVE_DAYS), _("Time per move"))
    _one_of(
        max_timeouts, range(1, MAX_TIMEOUTS_LIMIT + 1), _("Timeouts before a player is dropped")
    )
    _one_of(visibility, VISIBILITIES, _("Who may join"))
    _one_of(rounds, ROUNDS, _("Rounds"))
    switches = set(variants)
    unknown = sorted(switches - set(VARIANTS))
    if unknown:
        raise GameError(_("No such variant: %(v)s.") % {"v": ", ".join(unknown)[:200]})
    bots = _one_of(bots or None, (None, *BOTS), _("Other empty seats"))
    seat_bots = [
        _one_of(level or None, (None, *BotLevel.values), _("Seat %(n)d") % {"n": number})
        for number, level in enumerate(seats[: seat_count - 1], start=2)
    ]
    rules = Rules(
        aces_high="aces_high" in switches,
        face_cards_by_rank="face_cards_by_rank" in switches,
        wild_penalty=15 if "wild_penalty_15" in switches else None,
        max_wilds_per_meld=1 if "one_wild_per_meld" in switches else None,
        all_wild_melds="all_wild_melds" in switches,
        jokers="jokers" in switches,
        rounds=rounds,
        double_face_rounds="double_face_rounds" in switches,
        redemption="redemption" in switches,
    )
    return {
        "rules": rules,
        "seat_count": seat_count,
        "time_per_move_days": time_per_move_days,
        "max_timeouts": max_timeouts,
        "is_public": visibility == "listed",
        "friends_only": visibility == "friends",
        "bot_kind": bots,
        "seat_bots": seat_bots,
        "start_when_full": start_when_full,
    }
