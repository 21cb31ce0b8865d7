from django.core.management.base import BaseCommand

from accounts.services import bots_ensure


class Command(BaseCommand):
    help = "Create the bot accounts (idempotent)."

    def handle(self, *args, **options):
        bots = bots_ensure()
        self.stdout.write(f"Bot accounts: {', '.join(b.username for b in bots)}")
