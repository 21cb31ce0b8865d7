"""A player's statistics, from the stored results only (seats' final ranks and totals, the
per-round RoundScore rows), by aggregate queries: a fixed number of queries however many games
the player has, and no game's state or moves are ever read.

The records count the player's rated games only (those with their RatingChange row): a practice
game, or one ended before a round was played, is no achievement, and a game still in play has no
result yet. The rounds count the same games as "games finished"; the unrated finished games are
only counted, apart."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery, Sum

from accounts.models import User

from ..models import Game, RatingChange, RoundScore, Seat

RECENT_GAMES = 10
HAND_SIZES = range(3, 14)
BARS_WIDTH, BARS_HEIGHT, BARS_TOP, BARS_BOTTOM, BARS_LEFT = 600, 220, 28, 28, 8


@dataclass(frozen=True)
class Bar:
    hand_size: int
    rounds: int
    average: float | None
    x: float
    y: float
    height: float
    label_y: float


@dataclass(frozen=True)
class BarChart:
    """Average penalty per hand size as SVG bars in a BARS_WIDTH x BARS_HEIGHT viewBox."""

    bars: list[Bar]
    high: float
    best: Bar | None
    worst: Bar | None
    bar_width: float
    width: int = BARS_WIDTH
    height: int = BARS_HEIGHT
    baseline: int = BARS_HEIGHT - BARS_BOTTOM


def _bar_chart(per_size: dict[int, tuple[int, float]]) -> BarChart | None:
    if not per_size:
        return None
    high = max(average for _, average in per_size.values()) or 1.0
    slot = (BARS_WIDTH - BARS_LEFT) / len(HAND_SIZES)
    inner = BARS_HEIGHT - BARS_TOP - BARS_BOTTOM
    bars = []
    for i, size in enumerate(HAND_SIZES):
        rounds, average = per_size.get(size, (0, None))
        height = (average or 0) / high * inner
        y = BARS_TOP + inner - height
        bars.append(Bar(size, rounds, average, BARS_LEFT + i * slot, y, height, y - 4))
    played = [bar for bar in bars if bar.rounds]
    return BarChart(
        bars=bars,
        high=high,
        best=min(played, key=lambda bar: (bar.average, bar.hand_size)),
        worst=max(played, key=lambda bar: (bar.average, -bar.hand_size)),
        bar_width=slot * 0.7,
    )


def _streaks(wins: list[bool]) -> tuple[int, int]:
    """(current, longest) run of wins in finish order."""
    current = longest = 0
    for won in wins:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return current, longest


class FinishedGame(NamedTuple):
    """One finished game of the player: its id, how many played, their rank and total."""

    game_id: int
    players: int | None
    final_rank: int | None
    final_total: int | None


def _final_total(game: FinishedGame) -> int:
    """A game's final total, for one known to have it."""
    assert game.final_total is not None
    return game.final_total


def _by_players(games: list[FinishedGame]) -> list[dict[str, Any]]:
    groups: dict[int | None, list[FinishedGame]] = defaultdict(list)
    for game in games:
        groups[game.players].append(game)
    return [
        {
            "players": players,
            "games": len(group),
            "average_total": _mean([game.final_total for game in group]),
            "average_rank": _mean([game.final_rank for game in group]),
        }
        for players, group in sorted(groups.items(), key=lambda item: item[0] or 0)
    ]


def _mean(values: list[int | None]) -> float | None:
    known = [value for value in values if value is not None]
    return sum(known) / len(known) if known else None


def player_stats(user: User) -> dict[str, Any]:
    """Everything the player page shows besides the rating: four or five queries. A long
    history is read as index entries: the finished games once, four integers and whether it was
    rated for the player each in finish order (the seat's covering index, and the rating
    change's unique one), counted, grouped and ranked here; the rounds by hand size
    (_counted_rounds)."""
    seats = Seat.objects.filter(user=user)
    rated = Exists(RatingChange.objects.filter(game=OuterRef("game"), user=user))
    finished = seats.filter(finished_at__isnull=False)
    rows = list(
        finished.order_by("finished_at", "game_id").values_list(
            "game_id", "players", "final_rank", "final_total", rated, "dropped"
        )
    )
    games = [FinishedGame._make(row[:4]) for row in rows if row[4]]
    unfinished = list(
        seats.filter(finished_at__isnull=True).values_list("game_id", "game__status", "dropped")
    )
    not_counted = [row[0] for row in rows if not row[4]] + [row[0] for row in unfinished]
    # Abandoned: the clock ran out on the player again and again, the autopilot played on, and
    # at the game's limit the player was dropped (games/deadlines/timeouts.py).
    abandoned = sum(row[5] for row in rows) + sum(row[2] for row in unfinished)
    sizes = _counted_rounds(user, not_counted)
    per_size = {
        size: (count, penalty / count)
        for size, (count, penalty, _out) in sizes.items()
        if size in HAND_SIZES
    }
    rounds = sum(count for count, _penalty, _out in sizes.values())
    penalties = sum(penalty for _count, penalty, _out in sizes.values())
    went_out = sum(out for _count, _penalty, out in sizes.values())
    played = len(games)
    won = sum(game.final_rank == 1 for game in games)
    # The lowest total, the latest of equal ones; and the highest.
    newest_first = [game for game in reversed(games) if game.final_total is not None]
    best = min(newest_first, key=_final_total, default=None)
    worst = max(newest_first, key=_final_total, default=None)
    current, longest = _streaks([game.final_rank == 1 for game in games])
    recent = (
        finished.filter(rated)
        .order_by("-finished_at", "-game_id")
        .values_list(
            "game_id",
            "index",
            "finished_at",
            "players",
            "final_rank",
            "final_total",
            "game__is_public",
            named=True,
        )[:RECENT_GAMES]
    )
    return {
        "played": played,
        "unrated": len(rows) - len(games),
        "won": won,
        "in_progress": sum(row[1] == Game.Status.ACTIVE for row in unfinished),
        "completed": sum(not row[5] for row in rows),
        "abandoned": abandoned,
        "win_rate": round(100 * won / played) if played else None,
        "by_players": _by_players(games),
        "rounds": rounds,
        "average_penalty": penalties / rounds if rounds else None,
        "out_rate": round(100 * went_out / rounds) if rounds else None,
        "went_out": went_out,
        "best": best,
        "worst": worst if worst and best and worst is not best else None,
        "current_streak": current,
        "longest_streak": longest,
        "bars": _bar_chart(per_size),
        "recent": list(recent),
    }


def _counted_rounds(user: User, not_counted: list[int]) -> dict[int, tuple[int, int, int]]:
    """The player's rounds by hand size but those of the games `not_counted` (unrated, or not
    over): all of them, an index-only read however long the history, less those few games'
    rounds, read by the games' key (no query when there are none). Filtering the rounds by
    whether their game was rated instead probed the ratings for each round: 4x slower for a
    player of 6,000 games."""
    sizes = _rounds_by_size(RoundScore.objects.filter(user=user))
    left_out = RoundScore.objects.filter(user=user, game_id__in=not_counted)
    for size, (count, penalty, out) in _rounds_by_size(left_out).items():
        have = sizes[size]
        sizes[size] = (have[0] - count, have[1] - penalty, have[2] - out)
    return {size: row for size, row in sizes.items() if row[0]}


def _rounds_by_size(scores: QuerySet[RoundScore]) -> dict[int, tuple[int, int, int]]:
    """These round scores by hand size: (rounds, penalty points, rounds gone out)."""
    rows = (
        scores.values("hand_size")
        .annotate(
            rounds=Count("*"),
            penalty=Sum("penalty"),
            out=Count("went_out", filter=Q(went_out=True)),
        )
        .order_by("hand_size")
        .values_list("hand_size", "rounds", "penalty", "out")
    )
    return {size: (count, penalty or 0, out) for size, count, penalty, out in rows}


def profile_visible(*, shown: User, viewer: User) -> bool:
    """A hidden player page shows only to its player and to those who shared a game with them
    (at least one query when hidden: the shared game)."""
    preferences = getattr(shown, "preferences", None)
    if viewer.pk == shown.pk or not (preferences and preferences.profile_hidden):
        return True
    return Seat.objects.filter(user=viewer, game__seats__user=shown).exists()


def head_to_head(shown: User, other: User) -> dict[str, Any]:
    """The finished games `shown` and `other` both sat at, and how often each ranked above the
    other (a shared rank is a win for neither): one query. The two histories are matched on
    the seat's (user, finished_at) index, the shorter one driving, and every game's row is
    left alone: the cost is that of the shorter history, not of the games ever played."""
    other_rank = Seat.objects.filter(game=OuterRef("game"), user=other).values("final_rank")[:1]
    shared = Seat.objects.filter(user=other, finished_at__isnull=False).values("game_id")
    record = (
        Seat.objects.filter(user=shown, finished_at__isnull=False, game_id__in=shared)
        .annotate(other_rank=Subquery(other_rank))
        .aggregate(
            games=Count("pk"),
            shown_won=Count("pk", filter=Q(final_rank__lt=F("other_rank"))),
            other_won=Count("pk", filter=Q(final_rank__gt=F("other_rank"))),
        )
    )
    return {
        "other": other,
        **record,
        "tied": record["games"] - record["shown_won"] - record["other_won"],
    }
