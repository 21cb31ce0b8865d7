"""Fill the database with a made-up history for measuring pages at scale (devtools/seeding.py)."""

import time

from django.core.management.base import BaseCommand, CommandError

from devtools.progress import progress_bar
from devtools.seeding import seed_history


class Command(BaseCommand):
    help = (
        "Add finished games (with round scores, ranks and ratings), games in play and open games "
        "among new players shaped like real ones, with COPY (PostgreSQL). Reproducible by --seed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100_000, help="Finished games.")
        parser.add_argument("--users", type=int, default=2_000, help="New people.")
        parser.add_argument("--seed", default="history")
        parser.add_argument(
            "--in-play", type=int, help="Games under way (default: one per 40 finished)."
        )
        parser.add_argument(
            "--open", type=int, help="Games waiting for players (default: one per 500 finished)."
        )

    def handle(self, *args, games, users, seed, in_play, open, **options):
        if games < 1 or users < 2:
            raise CommandError("--games must be at least 1 and --users at least 2.")
        started = time.perf_counter()
        try:
            counts = seed_history(
                games=games,
                users=users,
                seed=seed,
                in_play=in_play,
                open_games=open,
                progress=progress_bar("games"),
            )
        except RuntimeError as error:
            raise CommandError(str(error)) from None
        rows = ", ".join(f"{table} {n}" for table, n in counts.rows.items())
        self.stdout.write(
            f"Seeded {counts.users} people, {counts.finished} finished games, {counts.active} in "
            f"play and {counts.open} open in {time.perf_counter() - started:.0f} s.\n"
            f"Rows: {rows}."
        )
