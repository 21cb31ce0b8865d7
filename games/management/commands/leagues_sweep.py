"""Run the leagues' sweep once, now: seasons whose start came are started, each playing
division's next wave of games made once the wave before it has ended, a season finished once its
divisions are. Beat runs it every few minutes (and a game's end runs its division's part at
once); on a development machine, after playing a wave's games by hand or with `--start`, this
moves a season on without waiting (docs/playing.md, "Leagues")."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from games.competitions.leagues import leagues_sweep
from games.models import LeagueSeason


class Command(BaseCommand):
    help = "Start the leagues' seasons that are due and make their divisions' next waves of games."

    def add_arguments(self, parser):
        parser.add_argument(
            "--start",
            action="store_true",
            help="Start every season still taking players now, as if its start time had come.",
        )

    def handle(self, *args, start=False, **options):
        now = timezone.now()
        if start:
            LeagueSeason.objects.filter(status=LeagueSeason.Status.REGISTRATION).update(
                starts_at=now
            )
        done = leagues_sweep(now=now)
        self.stdout.write("Seasons started: {started}; games made: {games}.".format(**done))
