from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # A provider's inbound webhook hands replies to turn mails to games/mailplay/.
        from .mailplay import webhook

        webhook.connect()
        # Every save of a game (a move, a start, an end, a seat given up) is news to its open
        # tables (games/events.py): one hook for every write that changes what a table shows.
        from django.db.models.signals import post_save

        from .events import game_changed
        from .models import Game

        def on_save(sender, instance, **kwargs):
            over = instance.status in (Game.Status.FINISHED, Game.Status.CANCELLED)
            game_changed(instance.pk, instance.version, over=over)

        post_save.connect(on_save, sender=Game, weak=False, dispatch_uid="games.events")
