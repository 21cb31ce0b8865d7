"""A game's stored results, from its engine state: the RoundScore rows of each round played, and
each seat's final total, rank and finish time. The services write them as the game goes
(services._apply, services.game_finish); `stats_rebuild` writes them again from the move logs
through the same functions, and then the ratings (ratings.ratings_rebuild), so the two cannot
differ in what they compute. Everything else the player page shows is computed from these on the fly
(selectors/player_stats.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction

from .engine import GameState
from .models import Game, RoundScore, Seat
from .ratings import ratings_rebuild
from .selectors.history import replayed_state

# What stats_rebuild writes: the Seat columns, besides the RoundScore, Rating and RatingChange rows.
SEAT_RESULT_FIELDS = ["final_rank", "final_total", "finished_at", "players"]


def round_scores(game: Game, state: GameState, round_number: int, users: dict) -> list[RoundScore]:
    """The rows for round `round_number` (0-based, among state.round_results); `users` maps seat
    index to user id."""
    result = state.round_results[round_number]
    return [
        RoundScore(
            game=game,
            round_index=result.round_index,
            seat=index,
            user_id=users[index],
            hand_size=result.hand_size,
            wild_rank=result.wild_rank,
            penalty=seat_result.penalty,
            went_out=result.went_out == index,
            melds=[[card.token for card in meld] for meld in seat_result.melds],
            deadwood=[card.token for card in seat_result.deadwood],
        )
        for index, seat_result in enumerate(result.seats)
    ]


def seats_rank(seats: Sequence[Seat], state: GameState, now: datetime) -> None:
    """Set each seat's final total, rank, finish time and number of players (unsaved): lowest
    total first, a tie shares the rank, a resigned player ranks after everyone who stayed."""
    standing = {seat.pk: (seat.resigned, state.totals[seat.index]) for seat in seats}
    order = sorted(seats, key=lambda seat: standing[seat.pk])
    for position, seat in enumerate(order):
        previous = order[position - 1] if position else None
        tied = previous is not None and standing[previous.pk] == standing[seat.pk]
        seat.final_rank = previous.final_rank if tied else position + 1
        seat.final_total = state.totals[seat.index]
        seat.finished_at = now
        seat.players = len(state.totals)


@transaction.atomic
def stats_rebuild() -> dict[str, int]:
    """Write every stored statistic again from the games' seeds and move logs: the RoundScore
    rows of every started game, the final results of every finished one, then every rating.
    Figures of what was written."""
    games = Game.objects.filter(status__in=[Game.Status.ACTIVE, Game.Status.FINISHED])
    RoundScore.objects.filter(game__in=games).delete()
    counts = {"games": 0, "rounds": 0}
    for game in games.order_by("pk").iterator():
        state = replayed_state(game)
        seats = list(game.seats.all())
        users = {seat.index: seat.user_id for seat in seats}
        rows = [
            row
            for number in range(len(state.round_results))
            for row in round_scores(game, state, number, users)
        ]
        RoundScore.objects.bulk_create(rows)
        if game.status == Game.Status.FINISHED:
            seats_rank(seats, state, game.finished_at)
            Seat.objects.bulk_update(seats, SEAT_RESULT_FIELDS)
        counts["games"] += 1
        counts["rounds"] += len(state.round_results)
    counts["rated"] = ratings_rebuild()
    return counts
