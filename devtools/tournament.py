"""Games between bot levels, for `manage.py bot_tournament`: seeded, reproducible, seats rotated.

Game g deals from seed f"{seed}:{g // players}" with the line-up rotated by g % players, so each
deal is played once from every seat (a duplicate format: the luck of the cards cancels out
between the levels, and no level gains from its seat)."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.engine.bots import HardBot, get_bot
from games.engine.rules import Rules
from games.engine.state import GameState


@dataclass
class GameRecord:
    index: int
    seats: tuple[str, ...]  # the level in each seat
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    went_out: tuple[int, ...]  # per seat: rounds it went out first
    rounds: int
    move_times: dict[str, list[float]]  # per level, seconds per decision
    hard_valued: int = 0
    hard_seconds: float = 0.0


def lineup_for(levels: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """The level in each seat of game `index`: `levels` repeated to fill the table, rotated."""
    base = [levels[i % len(levels)] for i in range(players)]
    shift = index % players
    return tuple(base[(seat + shift) % players] for seat in range(players))


def play_game(
    index: int, *, levels: Sequence[str], players: int, seed: str, rules: Rules, seconds: float
) -> GameRecord:
    seats = lineup_for(levels, players, index)
    bots = [HardBot(seconds) if name == "hard" else get_bot(name) for name in seats]
    state = GameState.new(rules, players, f"{seed}:{index // players}")
    rng = random.Random(f"{seed}:{index}:bots")
    times: dict[str, list[float]] = {name: [] for name in seats}
    valued, hard_seconds = 0, 0.0
    while not state.is_over:
        seat = state.to_move
        view = state.view(seat)
        started = time.perf_counter()
        action = bots[seat].choose(view, rng)
        spent = time.perf_counter() - started
        times[seats[seat]].append(spent)
        if isinstance(bots[seat], HardBot) and bots[seat].last_valued:
            valued += bots[seat].last_valued
            hard_seconds += spent
        state.apply(action)
    went_out = [0] * players
    for result in state.round_results:
        if result.went_out is not None:
            went_out[result.went_out] += 1
    return GameRecord(
        index=index,
        seats=seats,
        totals=tuple(state.totals),
        winners=tuple(state.winners),
        went_out=tuple(went_out),
        rounds=len(state.round_results),
        move_times=times,
        hard_valued=valued,
        hard_seconds=hard_seconds,
    )


@dataclass
class LevelSummary:
    level: str
    scores: list[int] = field(default_factory=list)  # one per seat played
    wins: float = 0.0  # a shared win counts as a share
    went_out: int = 0
    rounds: int = 0
    times: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores)

    @property
    def half_width(self) -> float:
        """Half the width of a 95% confidence interval of the mean (normal approximation)."""
        if len(self.scores) < 2:
            return math.nan
        return 1.96 * statistics.stdev(self.scores) / math.sqrt(len(self.scores))

    def time_quantile(self, q: float) -> float:
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else math.nan


def summarize(records: Sequence[GameRecord]) -> list[LevelSummary]:
    """Per level: scores, wins, rounds gone out first, decision times, over every seat it held."""
    summaries: dict[str, LevelSummary] = {}
    for record in records:
        for seat, level in enumerate(record.seats):
            summary = summaries.setdefault(level, LevelSummary(level))
            summary.scores.append(record.totals[seat])
            if seat in record.winners:
                summary.wins += 1 / len(record.winners)
            summary.went_out += record.went_out[seat]
            summary.rounds += record.rounds
        for level, times in record.move_times.items():
            summaries[level].times.extend(times)
    return list(summaries.values())


def margins(records: Sequence[GameRecord], a: str, b: str) -> dict[int, int]:
    """Per game in which `a` and `b` each hold seats: `a`'s lead, the total of `b`'s best seat
    less that of `a`'s best seat (positive: `a` finished lower)."""
    leads = {}
    for record in records:
        mine = [t for t, level in zip(record.totals, record.seats, strict=True) if level == a]
        theirs = [t for t, level in zip(record.totals, record.seats, strict=True) if level == b]
        if mine and theirs:
            leads[record.index] = min(theirs) - min(mine)
    return leads


def paired_difference(now: dict[int, int], before: dict[int, int]) -> tuple[float, float, int]:
    """How `now`'s per-game leads differ from `before`'s on the games both played (the same
    seed deals the same cards, so the pairs share their luck): the mean difference, the half
    width of its 95% interval (normal approximation), and the number of pairs."""
    differences = [now[index] - before[index] for index in sorted(now.keys() & before.keys())]
    pairs = len(differences)
    mean = statistics.fmean(differences) if differences else math.nan
    spread = 1.96 * statistics.stdev(differences) / math.sqrt(pairs) if pairs > 1 else math.nan
    return mean, spread, pairs


def head_to_head(records: Sequence[GameRecord], a: str, b: str) -> tuple[float, int]:
    """In games where `a` and `b` each hold seats: the share of games `a`'s best seat finished
    below `b`'s best seat (a tie counts half), and the number of such games."""
    leads = list(margins(records, a, b).values())
    won = sum(1.0 if lead > 0 else 0.5 if lead == 0 else 0.0 for lead in leads)
    return (won / len(leads) if leads else math.nan), len(leads)
