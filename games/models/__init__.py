"""The games app's models, a module per idea: a game and its parts (game), the background
processes' proof of life (heartbeat), the mail and push outbox (outbox), the mail received at
turns' reply addresses (mailplay), ratings (ratings), what passes between players (social), quick
play's seeks (quick), leagues (leagues), tournaments (tournaments) and games' reviews (review).
Everything is imported from here, `games.models`."""

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
from .mailplay import InboundMail
from .moderation import PLAYER_REPORT_NOTE_MAX_LENGTH, ModerationAction, PlayerReport
from .outbox import Notification
from .quick import QUICK_PRESETS, QuickPreset, Seek
from .ratings import Rating, RatingChange
from .review import PRICED_BEFORE, RoundReview
from .social import CHAT_MESSAGE_MAX_LENGTH, ChatMessage, ChatReport, Follow, Mute
from .tournaments import (
    TOURNAMENT_MAX_PLAYERS,
    TOURNAMENT_MAX_ROUNDS,
    TOURNAMENT_SEATS,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)

__all__ = [
    "CHAT_MESSAGE_MAX_LENGTH",
    "DEFAULT_TIME_PER_MOVE_DAYS",
    "DIVISION_SIZE_MAX",
    "DIVISION_SIZE_MIN",
    "MAX_TIMEOUTS_LIMIT",
    "PLAYER_REPORT_NOTE_MAX_LENGTH",
    "PRICED_BEFORE",
    "QUICK_PRESETS",
    "TIME_PER_MOVE_DAYS",
    "TOURNAMENT_MAX_PLAYERS",
    "TOURNAMENT_MAX_ROUNDS",
    "TOURNAMENT_SEATS",
    "ChatMessage",
    "ChatReport",
    "Division",
    "Follow",
    "Game",
    "Heartbeat",
    "InboundMail",
    "Invitation",
    "League",
    "LeagueEntry",
    "LeagueFixture",
    "LeagueSeason",
    "ModerationAction",
    "Move",
    "Mute",
    "Notification",
    "PlayerReport",
    "QuickPreset",
    "Rating",
    "RatingChange",
    "RoundReview",
    "RoundScore",
    "Seat",
    "Seek",
    "Tournament",
    "TournamentEntry",
    "TournamentRound",
    "TournamentTable",
    "new_invite_code",
    "new_seed",
]
