"""Reads for leagues: a division's standings and games, the leagues list, a player's league
history. Each in a fixed number of queries, whatever the number of members.

Standings (docs/playing.md, and written on the page): points by place at each finished table
(games/pairing.py: a point for each player placed below, half for a tie); a seat
left unplayed by a player who forfeited ranks last at its table. Ties are broken by more wins
(first places), then a lower sum of final totals, then a higher rating at the season's start. A
member who forfeited ranks below every member still playing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, IntegerField, OuterRef, QuerySet, Subquery, When

from accounts.models import User

from ..models import Division, Game, League, LeagueEntry, LeagueFixture, LeagueSeason, Seat
from ..pairing import table_half_points


@dataclass
class StandingRow:
    entry: LeagueEntry
    half_points: int = 0
    played: int = 0
    wins: int = 0
    totals: int = 0
    place: int = 0

    @property
    def user(self) -> User:
        return self.entry.user

    def sort_key(self) -> tuple[Any, ...]:
        return (
            self.entry.status == LeagueEntry.Status.FORFEITED,
            -self.half_points,
            -self.wins,
            self.totals,
            -(self.entry.seed_rating or 0),
            self.entry.user_id,
        )


@dataclass
class FixtureRow:
    fixture: LeagueFixture
    names: list[str]
    absent: list[str]
    done: bool
    results: list[dict[str, Any]] = field(default_factory=list)  # name, rank, total, half_points


def fixture_done(fixture: LeagueFixture, game_status: str | None) -> bool:
    """Played to the end, or never to be played (fewer than two players left)."""
    if fixture.game_id is None:
        return len(fixture.players) < 2
    return game_status in (Game.Status.FINISHED, Game.Status.CANCELLED)


def _fixture_ranks(fixture: LeagueFixture, seats: list[Seat]) -> dict[int, int]:
    """Each user's rank at the fixture's table (absent players last), or {} if not done."""
    if fixture.game_id is None:
        ranks = dict.fromkeys(fixture.players, 1) if len(fixture.players) < 2 else {}
    else:
        ranks = {s.user_id: s.final_rank for s in seats if s.final_rank is not None}
    if ranks and fixture.absent:
        last = max(ranks.values()) + 1
        ranks.update(dict.fromkeys(fixture.absent, last))
    return ranks


def division_fixtures(
    division: Division,
) -> tuple[list[LeagueFixture], dict[int | None, list[Seat]]]:
    """The division's fixtures, wave by wave, with their games' statuses, and the seats of its
    games (two queries)."""
    fixtures = list(
        LeagueFixture.objects.filter(division=division)
        .select_related("game")
        .only("division_id", "wave", "players", "absent", "game__status", "game__seat_count")
        .order_by("wave", "pk")
    )
    seats: dict[int | None, list[Seat]] = {}  # looked up by a fixture's game_id (or None)
    for seat in Seat.objects.filter(game__league_fixture__division=division).only(
        "game_id", "user_id", "index", "final_rank", "final_total"
    ):
        seats.setdefault(seat.game_id, []).append(seat)
    return fixtures, seats


def division_standings(division: Division) -> list[StandingRow]:
    """The division's table, best first (three queries)."""
    entries = LeagueEntry.objects.filter(division=division).select_related("user")
    rows = {entry.user_id: StandingRow(entry=entry) for entry in entries}
    fixtures, seats = division_fixtures(division)
    for fixture in fixtures:
        game_seats = seats.get(fixture.game_id, [])
        game_status = fixture.game.status if fixture.game is not None else None
        if not fixture_done(fixture, game_status):
            continue
        ranks = _fixture_ranks(fixture, game_seats)
        totals = {s.user_id: s.final_total or 0 for s in game_seats}
        for user_id, half_points in table_half_points(ranks).items():
            row = rows.get(user_id)
            if row is None:
                continue
            row.half_points += half_points
            row.played += user_id not in fixture.absent
            row.wins += ranks[user_id] == 1 and user_id not in fixture.absent
            row.totals += totals.get(user_id, 0)
    ordered = sorted(rows.values(), key=StandingRow.sort_key)
    for place, row in enumerate(ordered, 1):
        row.place = place
    return ordered


def division_games(division: Division) -> list[FixtureRow]:
    """The division's tables wave by wave, who plays, and each finished one's result."""
    fixtures, seats = division_fixtures(division)
    user_ids = {u for f in fixtures for u in [*f.players, *f.absent]}
    users = User.objects.filter(pk__in=user_ids).only(
        "display_name", "username", "is_active", "name_change_due"
    )
    names = {user.pk: user.name for user in users}  # a deleted player's as such
    rows = []
    for fixture in fixtures:
        game_seats = seats.get(fixture.game_id, [])
        game_status = fixture.game.status if fixture.game is not None else None
        done = fixture_done(fixture, game_status)
        row = FixtureRow(
            fixture=fixture,
            names=[names.get(u, "?") for u in fixture.players],
            absent=[names.get(u, "?") for u in fixture.absent],
            done=done,
        )
        if done:
            ranks = _fixture_ranks(fixture, game_seats)
            totals = {s.user_id: s.final_total for s in game_seats}
            points = table_half_points(ranks) if ranks else {}
            row.results = sorted(
                (
                    {
                        "name": names.get(u, "?"),
                        "rank": rank,
                        "total": totals.get(u),
                        "half_points": points.get(u, 0),
                    }
                    for u, rank in ranks.items()
                ),
                key=lambda r: r["rank"],
            )
        rows.append(row)
    return rows


LEAGUES_PER_PAGE = 50


def leagues_page(page: str | None = None) -> Page[League]:
    """One page of leagues_list (a count and a page, two queries)."""
    return Paginator(leagues_list(), LEAGUES_PER_PAGE).get_page(page)


def leagues_list() -> QuerySet[League]:
    """Every league with its current season's number, status and start and its member count,
    those open for players first, then those playing, by name."""
    current = LeagueSeason.objects.filter(league=OuterRef("pk")).order_by("-number")
    members = (
        LeagueEntry.objects.filter(season=OuterRef("pk"))
        .values("season")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return League.objects.annotate(
        season_id=current.values("pk")[:1],
        season_number=current.values("number")[:1],
        season_status=current.values("status")[:1],
        season_starts_at=current.values("starts_at")[:1],
        members=Subquery(
            LeagueSeason.objects.filter(pk=OuterRef("season_id"))
            .annotate(n=Subquery(members, output_field=IntegerField()))
            .values("n")[:1],
            output_field=IntegerField(),
        ),
        open_first=Case(When(season_status="registration", then=0), default=1),
    ).order_by("open_first", "name")


def current_season(league: League) -> LeagueSeason | None:
    return league.seasons.order_by("-number").first()


LEAGUE_HISTORY_ROWS = 20


def player_league_history(user: User) -> QuerySet[LeagueEntry]:
    """The player's seasons, newest first, with league, season and division (one query)."""
    return (
        LeagueEntry.objects.filter(user=user)
        .select_related("season__league", "division")
        .order_by("-season__started_at", "-pk")
    )


def league_division_of_game(game: Game) -> Division | None:
    """The division a league game belongs to, with its season and league (one query)."""
    fixture = (
        LeagueFixture.objects.filter(game_id=game.pk)
        .select_related("division__season__league")
        .first()
    )
    return fixture.division if fixture else None
