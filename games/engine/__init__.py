"""The rules of Three Thirteen as plain Python: nothing under this package imports Django.

A game is fully determined by (rules, number of players, seed, actions)."""

from .actions import Action, Discard, Draw, GoOut, action_from_dict
from .bots import (
    AUTOPILOT_LEVEL,
    BOTS,
    LEVELS,
    Bot,
    EasyBot,
    HardBot,
    MediumBot,
    RandomBot,
    get_bot,
    simulate_game,
)
from .cards import Card, make_deck, parse_card, parse_cards
from .errors import RuleError
from .melds import Arrangement, arrange, can_go_out, discard_options, is_meld
from .results import MoveRecord, RoundResult, SeatResult
from .rules import Rules
from .state import GameState
from .view import PlayerView

__all__ = ["Card", "Rules", "make_deck", "parse_card", "parse_cards"]
__all__ += [
    "AUTOPILOT_LEVEL",
    "BOTS",
    "LEVELS",
    "Action",
    "Bot",
    "Discard",
    "Draw",
    "EasyBot",
    "GameState",
    "GoOut",
    "HardBot",
    "MediumBot",
    "MoveRecord",
    "PlayerView",
    "RandomBot",
    "RoundResult",
    "RuleError",
    "SeatResult",
    "action_from_dict",
    "get_bot",
    "simulate_game",
]
__all__ += ["Arrangement", "arrange", "can_go_out", "discard_options", "is_meld"]
