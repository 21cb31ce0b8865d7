"""Tournaments mid-way, for measuring their pages and their Swiss seating at scale:
`seed_tournaments(players=2000, tournaments=10)` makes `players` people (or takes the seeded ones
already there), and `tournaments` tournaments that each of them entered, with round 1 over (its
games finished, each seat a final rank and total) and round 2 seated by the site's own Swiss
seating (games/competitions/tournaments.round_seating) and in play. Rows go in with bulk_create,
not through the services: a round of 700 tables is seconds, not minutes. Reproducible from
`seed`.

Not for devtools/tournament.py, which is something else: a contest between the bots."""

from __future__ import annotations

import random
from datetime import timedelta

from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.competitions.tournaments import round_seating
from games.engine import GameState, Rules
from games.models import (
    Game,
    Seat,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)

USERNAME_PREFIX = "tourney-"


def _players(count: int) -> list[User]:
    have = list(User.objects.filter(username__startswith=USERNAME_PREFIX).order_by("pk")[:count])
    password = make_password("correct horse battery")
    User.objects.bulk_create(
        User(
            username=f"{USERNAME_PREFIX}{number}",
            display_name=f"Entrant {number}",
            email=f"{USERNAME_PREFIX}{number}@example.com",
            password=password,
        )
        for number in range(len(have), count)
    )
    return list(User.objects.filter(username__startswith=USERNAME_PREFIX).order_by("pk")[:count])


def _round(tournament, number, seating, *, finished: bool, rng: random.Random, states: dict):
    """Round `number`'s games for `seating` (round_seating's tables and bye): finished with
    random results, or in play at their first turn."""
    tables, bye = seating
    now = timezone.now()
    round_ = TournamentRound.objects.create(
        tournament=tournament, number=number, finished_at=now if finished else None
    )
    rules = Rules(rounds=tournament.preset).to_dict()
    games = Game.objects.bulk_create(
        Game(
            created_by=players[0],
            rules=rules,
            seat_count=len(players),
            is_public=True,
            start_when_full=False,
            time_per_move_days=tournament.time_per_move_days,
            status=Game.Status.FINISHED if finished else Game.Status.ACTIVE,
            state=states[len(players)],
            started_at=now - timedelta(days=3),
            finished_at=now if finished else None,
            end_reason=Game.EndReason.COMPLETED if finished else "",
            to_move_seat=None if finished else 0,
            turn_started_at=None if finished else now,
        )
        for players in tables
    )
    seats = []
    for game, players in zip(games, tables, strict=True):
        totals = [rng.randrange(20, 200) for _ in players]
        for index, player in enumerate(players):
            seat = Seat(game=game, index=index, user=player)
            if finished:
                seat.final_total = totals[index]
                seat.final_rank = 1 + sum(t < totals[index] for t in totals)
                seat.players = len(players)
                seat.finished_at = now
            seats.append(seat)
    Seat.objects.bulk_create(seats)
    TournamentTable.objects.bulk_create(
        TournamentTable(round=round_, number=index, game=game)
        for index, game in enumerate(games, 1)
    )
    if bye is not None:
        TournamentTable.objects.create(round=round_, number=len(games) + 1, bye=bye)


@transaction.atomic
def seed_tournaments(
    *, players: int, tournaments: int, seats_per_table: int = 3, rounds: int = 3, seed: int = 0
) -> list[Tournament]:
    """`tournaments` tournaments of `players` entrants each, round 1 over and round 2 in play."""
    rng = random.Random(seed)
    people = _players(players)
    states = {
        size: GameState.new(Rules(), size, f"tournaments-world-{size}").to_dict()
        for size in range(2, seats_per_table + 1)
    }
    made = []
    now = timezone.now()
    for number in range(tournaments):
        tournament = Tournament.objects.create(
            name=f"Seeded cup {number + 1}",
            created_by=people[0],
            preset="classic",
            seats_per_table=seats_per_table,
            rounds=rounds,
            time_per_move_days=3,
            starts_at=now - timedelta(days=4),
            status=Tournament.Status.PLAYING,
            started_at=now - timedelta(days=4),
            current_round=1,
        )
        TournamentEntry.objects.bulk_create(
            TournamentEntry(tournament=tournament, user=person, rating=rng.randrange(700, 1400))
            for person in people
        )
        _round(tournament, 1, round_seating(tournament), finished=True, rng=rng, states=states)
        _round(tournament, 2, round_seating(tournament), finished=False, rng=rng, states=states)
        tournament.current_round = 2
        tournament.save(update_fields=["current_round"])
        made.append(tournament)
    return made
