"""Queue the reviews of finished games that have none (games/reviews.py): the games played
before reviews were made are otherwise reviewed only when their review page is first opened."""

from django.core.management.base import BaseCommand

from games.reviews import unreviewed_requested


class Command(BaseCommand):
    help = (
        "Queue the review of the latest finished games in which a person played and nothing was "
        "reviewed yet; a worker taking the reviews queue makes them, giving way to other work."
    )

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=1000, help="games at most (latest first)")

    def handle(self, *args, limit, **options):
        queued = unreviewed_requested(max(0, limit))
        self.stdout.write(f"Queued the review of {len(queued)} finished games.")
