"""The games app's models, a module per idea: a game and its parts (game), the background
processes' proof of life (heartbeat), the mail and push outbox (outbox), ratings (ratings), what
passes between players (social) and quick play's seeks (quick). Everything is imported from here,
`games.models`."""

from .game import (
    DEFAULT_TIME_PER_MOVE_DAYS,
    MAX_TIMEOUTS_LIMIT,
    TIME_PER_MOVE_DAYS,
    Game,
    Invitation,
    Move,
    RoundScore,
    Seat,
    new_invite_code,
    new_seed,
)
from .heartbeat import Heartbeat
from .leagues import (
    DIVISION_SIZE_MAX,
    DIVISION_SIZE_MIN,
    Division,
    League,
    LeagueEntry,
    LeagueFixture,
    LeagueSeason,
)
from .outbox import Notification
from .quick import QUICK_PRESETS, QuickPreset, Seek
from .ratings import Rating, RatingChange
from .social import CHAT_MESSAGE_MAX_LENGTH, ChatMessage, ChatReport, Follow, Mute

__all__ = [
    "CHAT_MESSAGE_MAX_LENGTH",
    "DEFAULT_TIME_PER_MOVE_DAYS",
    "DIVISION_SIZE_MAX",
    "DIVISION_SIZE_MIN",
    "MAX_TIMEOUTS_LIMIT",
    "QUICK_PRESETS",
    "TIME_PER_MOVE_DAYS",
    "ChatMessage",
    "ChatReport",
    "Division",
    "Follow",
    "Game",
    "Heartbeat",
    "Invitation",
    "League",
    "LeagueEntry",
    "LeagueFixture",
    "LeagueSeason",
    "Move",
    "Mute",
    "Notification",
    "QuickPreset",
    "Rating",
    "RatingChange",
    "RoundScore",
    "Seat",
    "Seek",
    "new_invite_code",
    "new_seed",
]
