"""Recompute every rating from the stored finished games, in finish order (games/ratings.py)."""

from django.core.management.base import BaseCommand

from games.ratings import ratings_rebuild


class Command(BaseCommand):
    help = "Forget every rating and rate every finished game again, in the order they finished."

    def handle(self, *args, **options):
        rated = ratings_rebuild()
        self.stdout.write(f"Rated {rated} games.")
