"""Time the pages whose cost could grow with the history (the dashboard, a heavy player's
profile, the leaderboard, the lobby) on the database as it is, in-process; with --baseline,
against the figures saved from an almost empty database (`seed_history` makes both). The figures
and how to run it: docs/benchmarks.md, "Scale (seed_history)"."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count, Q
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games.management.timing import time_page
from games.models import Game, RoundScore, Seat

TARGET = 2.0  # each page within 2x of its time on an almost empty database


class Command(BaseCommand):
    help = (
        "Median and p95 of the dashboard, the profile of the busiest player, the leaderboard "
        "and the lobby, as that player; --save the figures, or compare with a --baseline."
    )

    def add_arguments(self, parser):
        parser.add_argument("--requests", type=int, default=50, help="Timed requests per page.")
        parser.add_argument("--save", type=Path, help="Write the figures to this JSON file.")
        parser.add_argument("--baseline", type=Path, help="Compare with figures saved earlier.")
        parser.add_argument(
            "--explain",
            type=int,
            default=0,
            metavar="N",
            help="Then print EXPLAIN ANALYZE of each page's N slowest queries.",
        )

    def handle(self, *args, requests, save, baseline, explain, **options):
        player = (
            User.objects.filter(is_bot=False, is_active=True)
            .annotate(finished=Count("seats", filter=Q(seats__finished_at__isnull=False)))
            .order_by("-finished", "pk")
            .first()
        )
        if player is None:
            raise CommandError("No player here: run seed_history first.")
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(player)
        pages = {
            "dashboard": reverse("home"),
            "profile": reverse("player", args=[player.username]),
            "leaderboard": reverse("leaderboard"),
            "lobby": reverse("lobby"),
        }
        size = (
            f"{Game.objects.count()} games, {Seat.objects.count()} seats, "
            f"{RoundScore.objects.count()} round scores, {User.objects.count()} users; "
            f"as {player.username} ({player.finished} finished games)"
        )
        self.stdout.write(f"{size}\n{requests} requests per page, in-process")
        before = json.loads(baseline.read_text())["pages"] if baseline else {}
        figures = {}
        for name, url in pages.items():
            page = time_page(client, url, {}, requests)
            figures[name] = {"median": page.median, "p95": page.percentile(0.95)}
            line = (
                f"  {name:12s} {page.status}  {page.queries:2d} queries  "
                f"median {page.median:7.2f} ms  p95 {page.percentile(0.95):7.2f} ms"
            )
            if name in before:
                ratio = page.median / before[name]["median"]
                verdict = "met" if ratio <= TARGET else "NOT met"
                line += f"  {ratio:4.2f}x the baseline's median ({verdict})"
            self.stdout.write(line)
        if save:
            save.write_text(json.dumps({"database": size, "pages": figures}, indent=2))
        for name, url in pages.items() if explain else ():
            self._explain(client, name, url, explain)

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
