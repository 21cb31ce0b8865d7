"""Time the pages whose cost could grow with the history (the dashboard, a heavy player's
profile, the leaderboard, the lobby) on this database, in-process, each as its busiest player;
with --baseline-db, against an almost empty database on the same server, the two timed in
alternate rounds so that a load that comes and goes on a shared machine weighs on both alike
(`seed_history` makes both). Figures and how to run it: docs/benchmarks.md, "Scale
(seed_history)"."""

from dataclasses import dataclass, field

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count, Q
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from devtools.timing import PageTimes, time_page
from games.models import Game, RoundScore, Seat

TARGET = 2.0  # each page within 2x of its time on an almost empty database
PAGES = ("dashboard", "profile", "leaderboard", "lobby")


@dataclass
class Side:
    """One database, its busiest player logged in, and the times taken so far."""

    database: str
    client: Client
    urls: dict[str, str]
    description: str
    times: dict[str, list[float]] = field(default_factory=dict)
    queries: dict[str, int] = field(default_factory=dict)


def use_database(name: str) -> None:
    """Point the default connection at another database of the same server."""
    connection.close()
    connection.settings_dict["NAME"] = name


class Command(BaseCommand):
    help = (
        "Median and p95 of the dashboard, the profile of the busiest player, the leaderboard "
        "and the lobby, as that player; with --baseline-db, against that database too."
    )

    def add_arguments(self, parser):
        parser.add_argument("--requests", type=int, default=60, help="Timed requests per page.")
        parser.add_argument("--rounds", type=int, default=6, help="Alternations between bases.")
        parser.add_argument("--baseline-db", help="An almost empty database on the same server.")
        parser.add_argument(
            "--explain",
            type=int,
            default=0,
            metavar="N",
            help="Then print EXPLAIN ANALYZE of each page's N slowest queries (this database).",
        )

    def handle(self, *args, requests, rounds, baseline_db, explain, **options):
        if connection.vendor != "postgresql" and baseline_db:
            raise CommandError("--baseline-db needs PostgreSQL.")
        sides = [self._side(connection.settings_dict["NAME"])]
        if baseline_db:
            sides.append(self._side(baseline_db))
        per_round = max(1, requests // rounds)
        for _ in range(rounds):
            for side in sides:
                use_database(side.database)
                for name in PAGES:
                    page = time_page(side.client, side.urls[name], {}, per_round, warmup=1)
                    side.times.setdefault(name, []).extend(page.times)
                    side.queries[name] = page.queries
        for side in sides:
            self.stdout.write(f"{side.database}: {side.description}")
        self.stdout.write(f"{per_round * rounds} requests per page, in-process, {rounds} rounds")
        for name in PAGES:
            self._report(name, sides)
        use_database(sides[0].database)
        for name in PAGES if explain else ():
            self._explain(sides[0].client, name, sides[0].urls[name], explain)

    def _side(self, database: str) -> Side:
        use_database(database)
        player = (
            User.objects.filter(is_bot=False, is_active=True)
            .annotate(finished=Count("seats", filter=Q(seats__finished_at__isnull=False)))
            .order_by("-finished", "pk")
            .first()
        )
        if player is None:
            raise CommandError(f"No player in {database}: run seed_history first.")
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(player)
        urls = {
            "dashboard": reverse("home"),
            "profile": reverse("player", args=[player.username]),
            "leaderboard": reverse("leaderboard"),
            "lobby": reverse("lobby"),
        }
        description = (
            f"{Game.objects.count()} games, {Seat.objects.count()} seats, "
            f"{RoundScore.objects.count()} round scores, {User.objects.count()} users; "
            f"as {player.username} ({player.finished} finished games)"
        )
        return Side(database, client, urls, description)

    def _report(self, name: str, sides: list[Side]) -> None:
        pages = [PageTimes(200, side.queries[name], sorted(side.times[name])) for side in sides]
        line = f"  {name:12s} {pages[0].queries:2d} queries"
        for side, page in zip(sides, pages, strict=True):
            line += (
                f"  {side.database}: median {page.median:7.2f} ms, "
                f"p95 {page.percentile(0.95):7.2f} ms"
            )
        if len(pages) == 2:
            ratio = pages[0].median / pages[1].median
            verdict = "met" if ratio <= TARGET else "NOT met"
            line += f"  {ratio:4.2f}x ({verdict})"
        self.stdout.write(line)

    def _explain(self, client, name: str, url: str, count: int) -> None:
        """The page's slowest queries, each run again under EXPLAIN (ANALYZE, BUFFERS)."""
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        slowest = sorted(captured.captured_queries, key=lambda q: -float(q["time"]))[:count]
        for query in slowest:
            self.stdout.write(f"\n== {name}: {float(query['time']) * 1000:.1f} ms\n{query['sql']}")
            with connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {query['sql']}")
                self.stdout.write("\n".join(row[0] for row in cursor.fetchall()))
