"""Recompute every stored statistic (round results, final ranks and totals) and every rating from
the stored games' seeds and move logs (games/results.py)."""

from django.core.management.base import BaseCommand

from games.results import stats_rebuild


class Command(BaseCommand):
    help = (
        "Write every game's round results and final ranks again from its moves, then rate every "
        "finished game again in the order they finished."
    )

    def handle(self, *args, **options):
        counts = stats_rebuild()
        self.stdout.write(
            "Rebuilt {games} games ({rounds} rounds); rated {rated} games.".format(**counts)
        )
