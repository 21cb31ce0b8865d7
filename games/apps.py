from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # A provider's inbound webhook hands replies to turn mails to games/mailplay/; every save
        # of a game is news to its open tables (games/events.py).
        from . import events
        from .mailplay import webhook

        webhook.connect()
        events.connect()
