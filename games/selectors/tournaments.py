"""Reads of tournaments: the lists, a tournament's standing (points, then the tie-breaks), its
rounds' tables, and who has met whom (for the next round's seating). Each a fixed number of
queries, however many players and rounds."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, TypedDict

from django.db.models import Count, QuerySet

from accounts.models import User

from ..models import Game, Seat, Tournament, TournamentEntry, TournamentTable
from ..pairing import table_half_points

BYE_HALF_POINTS = 2  # a bye counts as a win at a table of two: one point


class TournamentSeat(TypedDict):
    """A seat at one of the tournament's tables, as tournament_seats reads it."""

    game_id: int
    user_id: int
    final_rank: int | None
    final_total: int | None
    game__status: str
    game__tournament_table__round__number: int


@dataclass
class Standing:
    """One player's line of the standing; points and Buchholz in halves."""

    user: User
    rating: int | None
    points: int = 0
    buchholz: int = 0
    wins: int = 0
    totals: int = 0
    played: int = 0
    byes: int = 0
    place: int = 0
    opponents: list[int] = field(default_factory=list)

    def key(self) -> tuple[int, int, int, int]:
        """The order of the standing: points, Buchholz, wins, then the lower sum of totals."""
        return (-self.points, -self.buchholz, -self.wins, self.totals)


def tournaments_listed() -> dict[str, QuerySet[Tournament]]:
    """The tournaments page's three lists, each with its number of players (the newest first,
    at most 50 each)."""
    base = Tournament.objects.select_related("created_by", "winner").annotate(
        players=Count("entries")
    )
    return {
        "open": base.filter(status=Tournament.Status.OPEN).order_by("starts_at", "pk")[:50],
        "playing": base.filter(status=Tournament.Status.PLAYING).order_by("-started_at")[:50],
        "finished": base.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:50],
    }


def tournament_seats(tournament_id: int) -> list[TournamentSeat]:
    """Every seat of the tournament's tables: game, round number, player, result (one query)."""
    return list(
        Seat.objects.filter(game__tournament_table__round__tournament_id=tournament_id).values(
            "game_id",
            "user_id",
            "final_rank",
            "final_total",
            "game__status",
            "game__tournament_table__round__number",
        )
    )


def met_pairs(seats: list[TournamentSeat]) -> set[frozenset[int]]:
    """Every pair of players who have sat at one table of the tournament."""
    by_game = defaultdict(list)
    for row in seats:
        by_game[row["game_id"]].append(row["user_id"])
    return {frozenset(pair) for users in by_game.values() for pair in combinations(users, 2)}


def standings(
    tournament: Tournament, *, seats: list[TournamentSeat] | None = None
) -> list[Standing]:
    """The players in order of standing, each with their place (shared on a full tie): points
    for each finished table (games/pairing.py), a bye as a win; then Buchholz (the
    sum of the points of the entrants one has played), then wins (first place at a table, a bye
    counts), then the lower sum of one's final totals. Three queries."""
    entries = TournamentEntry.objects.filter(tournament=tournament).select_related(
        "user", "user__rating"
    )
    lines = {e.user_id: Standing(user=e.user, rating=e.rating) for e in entries}
    seats = tournament_seats(tournament.pk) if seats is None else seats
    by_game = defaultdict(list)
    for row in seats:
        if row["game__status"] == Game.Status.FINISHED:
            by_game[row["game_id"]].append(row)
    for rows in by_game.values():
        points = table_half_points({row["user_id"]: _final_rank(row) for row in rows})
        for row in rows:
            line = lines.get(row["user_id"])
            if line is None:  # a bot filling the table
                continue
            line.points += points[row["user_id"]]
            line.wins += row["final_rank"] == 1
            line.totals += row["final_total"] or 0
            line.played += 1
            line.opponents += [r["user_id"] for r in rows if r["user_id"] != row["user_id"]]
    byes = TournamentTable.objects.filter(round__tournament=tournament, bye__isnull=False)
    for user_id in byes.values_list("bye_id", flat=True):
        if user_id in lines:
            lines[user_id].points += BYE_HALF_POINTS
            lines[user_id].wins += 1
            lines[user_id].byes += 1
    for line in lines.values():
        line.buchholz = sum(lines[o].points for o in line.opponents if o in lines)
    order = sorted(
        lines.values(),
        key=lambda s: (*s.key(), -(s.rating or 0), s.user.name.lower(), s.user.pk),
    )
    for position, line in enumerate(order):
        previous = order[position - 1] if position else None
        tied = previous is not None and previous.key() == line.key()
        line.place = previous.place if previous is not None and tied else position + 1
    return order


def _final_rank(row: TournamentSeat) -> int:
    rank = row["final_rank"]
    assert rank is not None, "every seat of a finished game is ranked"
    return rank


def tournament_rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """Each round with its tables: the players of each (their seat's result once it is over) and
    the game, newest round first. Two queries."""
    tables = (
        TournamentTable.objects.filter(round__tournament=tournament)
        .select_related("round", "game", "bye")
        .prefetch_related("game__seats__user")
        .order_by("-round__number", "number")
    )
    rounds: dict[int, dict[str, Any]] = {}
    for table in tables:
        number = table.round.number
        entry = rounds.setdefault(number, {"number": number, "round": table.round, "tables": []})
        seats = sorted(table.game.seats.all(), key=lambda s: s.index) if table.game else []
        entry["tables"].append({"table": table, "game": table.game, "seats": seats})
    return list(rounds.values())


def tournament_of_game(game_id: int) -> TournamentTable | None:
    """The tournament table a game is, with its round and tournament (None: not a tournament's)."""
    return (
        TournamentTable.objects.select_related("round__tournament").filter(game_id=game_id).first()
    )


def player_tournaments(user: User) -> dict[str, Any]:
    """A player's tournaments for their profile: how many won, and their finished places."""
    entries = list(
        TournamentEntry.objects.filter(user=user, place__isnull=False)
        .select_related("tournament")
        .annotate(players=Count("tournament__entries"))
        .order_by("-tournament__finished_at")
    )  # one query; a player finishes a few tournaments, not thousands
    won = sum(entry.tournament.winner_id == user.pk for entry in entries)
    return {"tournaments_won": won, "tournament_places": entries[:10]}
