"""Computer players. A bot sees exactly what a human in its seat sees: a PlayerView, never the
state, so it cannot peek at other hands or the stock.

Levels (LEVELS, weakest first): easy and medium play one ply (simple.py), hard searches over
samples of the unseen cards (hard.py). "random" plays any legal action: for tests and
benchmarks, not offered to players."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Rules
from ..state import GameState
from .base import Bot
from .hard import HardBot
from .simple import EasyBot, MediumBot, RandomBot

LEVELS = ("easy", "medium", "hard")
AUTOPILOT_LEVEL = "medium"
BOTS: dict[str, Bot] = {
    "random": RandomBot(),
    "easy": EasyBot(),
    "medium": MediumBot(),
    "hard": HardBot(),
}

__all__ = ["AUTOPILOT_LEVEL", "BOTS", "LEVELS", "Bot", "EasyBot", "HardBot", "MediumBot"]
__all__ += ["RandomBot", "get_bot", "simulate_game"]


def get_bot(name: str, *, seconds: float | None = None, time_cap: bool = True) -> Bot:
    """The bot called `name`; `seconds` sets the hard bot's budget per move (default 1 s),
    `time_cap` whether the clock may cut its search short."""
    if name == "hard" and (seconds is not None or not time_cap):
        return HardBot(1.0 if seconds is None else seconds, time_cap=time_cap)
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"no bot named {name!r}; choose from {', '.join(BOTS)}") from None


def simulate_game(
    rules: Rules, players: int, seed: str, bot_names: Sequence[str], *, bots: Sequence[Bot] = ()
) -> GameState:
    """A whole game between bots (one name per seat, or the `bots` themselves), deterministic
    in `seed`."""
    chosen = list(bots) or [get_bot(name) for name in bot_names]
    if len(chosen) != players:
        raise ValueError(f"{players} players need {players} bot names, got {len(chosen)}")
    rng = random.Random(f"{seed}:bots")
    state = GameState.new(rules, players, seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None, "a game not over has a seat to move"
        state.apply(chosen[seat].choose(state.view(seat), rng))
    return state
