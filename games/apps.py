from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # A provider's inbound webhook hands replies to turn mails to games/mailplay/; every save
        # of a game is news to its open tables (games/events.py).
        # Every process counts its database queries and tasks for /metrics (games/metrics.py).
        # Tasks carry the id of the request that queued them (games/tracing.py).
        from . import events, metrics, tracing
        from .mailplay import webhook

        webhook.connect()
        events.connect()
        metrics.connect()
        tracing.connect()
