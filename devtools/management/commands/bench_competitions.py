"""Time what leagues and tournaments do as the world grows: creating a season's first wave of
games, computing a division's standings, and one Swiss seating of a tournament; first on a small
world (one league, one tournament), then after growing it to --players players in --leagues
leagues and --tournaments tournaments, each operation on a league or tournament of the same size
both times. Prints the medians, their ratio (the target: within 2x) and the queries each took
(the same on both worlds). Run it on an empty database of its own: it adds thousands of rows.
Figures and how to run it: docs/benchmarks.md, "Leagues and tournaments at scale"."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from devtools.leagues_world import seed_leagues
from devtools.tournaments_world import seed_tournaments
from games.competitions import leagues
from games.competitions.tournaments import round_seating
from games.models import League, LeagueEntry, LeagueSeason, Tournament
from games.selectors.leagues import division_standings

TARGET = 2.0
LEAGUE_MEMBERS = 100  # members of each league (about 17 divisions of 6)
TOURNAMENT_ENTRANTS = 200  # entrants of each tournament


def measure(
    action: Callable[..., object], repeats: int, prepare: Callable[[], tuple] = tuple
) -> tuple[float, int]:
    """The median time of `action(*prepare())` in ms (`prepare` untimed), and the queries its
    last run took."""
    times = []
    queries = 0
    for _ in range(repeats):
        arguments = prepare()
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            action(*arguments)
            times.append((time.perf_counter() - start) * 1000)
        queries = len(captured)
    return statistics.median(times), queries


class Command(BaseCommand):
    help = "Leagues' and tournaments' work on a small world, then on a grown one: times, ratios."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=2000)
        parser.add_argument("--leagues", type=int, default=20)
        parser.add_argument("--tournaments", type=int, default=10)
        parser.add_argument("--repeats", type=int, default=15)

    def handle(self, *args, players, leagues: int, tournaments: int, repeats: int, **options):
        if League.objects.exists() or Tournament.objects.exists():
            raise CommandError("Run this on an empty database of its own (it seeds a world).")
        self.waves = 0
        self.stdout.write("Small world: 1 league, 1 tournament ...")
        seed_leagues(players=LEAGUE_MEMBERS, leagues_count=1, prefix="small")
        seed_tournaments(players=TOURNAMENT_ENTRANTS, tournaments=1)
        small = self.figures(repeats)
        self.stdout.write(
            f"Growing it to {players} players, {leagues} leagues, {tournaments} tournaments ..."
        )
        started = time.perf_counter()
        seed_leagues(players=players - LEAGUE_MEMBERS, leagues_count=leagues - 1, prefix="world")
        seed_tournaments(players=TOURNAMENT_ENTRANTS, tournaments=tournaments - 1, seed=1)
        self.stdout.write(f"  seeded in {time.perf_counter() - started:.0f} s")
        big = self.figures(repeats)
        self.report(small, big)

    def figures(self, repeats: int) -> dict[str, tuple[float, int]]:
        division = LeagueSeason.objects.order_by("pk").first().divisions.order_by("level").first()
        tournament = Tournament.objects.order_by("pk").first()
        return {
            "a season's first wave (100 members)": measure(
                lambda season_id: leagues.season_start(season_id=season_id),
                3,
                prepare=self.fresh_season,
            ),
            "a division's standings": measure(lambda: division_standings(division), repeats),
            "one Swiss seating (200 entrants)": measure(lambda: round_seating(tournament), repeats),
        }

    def fresh_season(self) -> tuple[int]:
        """A new league of LEAGUE_MEMBERS of the world's players, its season due to start: the
        start makes its divisions and their first wave of games."""
        self.waves += 1
        people = list(User.objects.filter(is_bot=False).order_by("pk")[:LEAGUE_MEMBERS])
        league = League.objects.create(
            name=f"Bench {self.waves}", created_by=people[0], preset="classic", bots_fill=False
        )
        season = LeagueSeason.objects.create(league=league, number=1, starts_at=league.created_at)
        LeagueEntry.objects.bulk_create(LeagueEntry(season=season, user=p) for p in people)
        return (season.pk,)

    def report(self, small: dict, big: dict) -> None:
        self.stdout.write(
            f"\n{'operation':40} {'small ms':>9} {'world ms':>9} {'ratio':>6} {'queries':>11}"
        )
        worst = 0.0
        for name, (small_ms, small_queries) in small.items():
            big_ms, big_queries = big[name]
            ratio = big_ms / small_ms
            worst = max(worst, ratio)
            self.stdout.write(
                f"{name:40} {small_ms:9.1f} {big_ms:9.1f} {ratio:6.2f} "
                f"{small_queries:>5} {big_queries:>5}"
            )
        verdict = "within" if worst <= TARGET else "OVER"
        self.stdout.write(f"\nWorst ratio {worst:.2f}: {verdict} the {TARGET:.0f}x target.")
