from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # A provider's inbound webhook hands replies to turn mails to games/mailplay/.
        from .mailplay import webhook

        webhook.connect()
