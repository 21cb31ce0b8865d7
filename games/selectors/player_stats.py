"""A player's statistics, from the stored results only (seats' final ranks and totals, the
per-round RoundScore rows), by aggregate queries: a fixed number of queries however many games
the player has, and no game's state or moves are ever read."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, F, OuterRef, Q, Subquery

from accounts.models import User

from ..models import Game, RoundScore, Seat

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


def player_stats(user: User) -> dict:
    """Everything the player page shows besides the rating: eight queries."""
    seats = Seat.objects.filter(user=user)
    finished = seats.filter(game__status=Game.Status.FINISHED)
    counts = seats.aggregate(
        played=Count("pk", filter=Q(game__status=Game.Status.FINISHED)),
        won=Count("pk", filter=Q(game__status=Game.Status.FINISHED, final_rank=1)),
        in_progress=Count("pk", filter=Q(game__status=Game.Status.ACTIVE)),
    )
    by_players = list(
        finished.values(players=F("game__seat_count"))
        .annotate(
            games=Count("pk"), average_total=Avg("final_total"), average_rank=Avg("final_rank")
        )
        .order_by("players")
    )
    rounds = RoundScore.objects.filter(user=user).aggregate(
        rounds=Count("pk"), average_penalty=Avg("penalty"), out=Count("pk", filter=Q(went_out=True))
    )
    per_size = {
        row["hand_size"]: (row["rounds"], row["average"])
        for row in RoundScore.objects.filter(user=user, hand_size__in=HAND_SIZES)
        .values("hand_size")
        .annotate(rounds=Count("pk"), average=Avg("penalty"))
    }
    scored = finished.filter(final_total__isnull=False).select_related("game")
    best = scored.order_by("final_total", "-finished_at", "-game_id").first()
    worst = scored.order_by("-final_total", "-finished_at", "-game_id").first()
    # Streaks: the one column of ranks in finish order, not the games themselves.
    wins = [
        rank == 1
        for rank in finished.order_by("finished_at", "game_id").values_list("final_rank", flat=True)
    ]
    current, longest = _streaks(wins)
    recent = list(
        finished.select_related("game").order_by("-finished_at", "-game_id")[:RECENT_GAMES]
    )
    played = counts["played"]
    return {
        "played": played,
        "won": counts["won"],
        "in_progress": counts["in_progress"],
        "win_rate": round(100 * counts["won"] / played) if played else None,
        "by_players": by_players,
        "rounds": rounds["rounds"],
        "average_penalty": rounds["average_penalty"],
        "out_rate": round(100 * rounds["out"] / rounds["rounds"]) if rounds["rounds"] else None,
        "went_out": rounds["out"],
        "best": best,
        "worst": worst if worst and best and worst.pk != best.pk else None,
        "current_streak": current,
        "longest_streak": longest,
        "bars": _bar_chart(per_size),
        "recent": recent,
    }


def profile_visible(*, shown: User, viewer: User) -> bool:
    """A hidden player page shows only to its player and to those who shared a game with them
    (at least one query when hidden: the shared game)."""
    preferences = getattr(shown, "preferences", None)
    if viewer.pk == shown.pk or not (preferences and preferences.profile_hidden):
        return True
    return Seat.objects.filter(user=viewer, game__seats__user=shown).exists()


def head_to_head(shown: User, other: User) -> dict:
    """The finished games `shown` and `other` both sat at, and how often each ranked above the
    other (a shared rank is a win for neither): one query."""
    other_rank = Seat.objects.filter(game=OuterRef("game"), user=other).values("final_rank")[:1]
    record = (
        Seat.objects.filter(user=shown, game__status=Game.Status.FINISHED)
        .annotate(other_rank=Subquery(other_rank))
        .filter(other_rank__isnull=False)
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
