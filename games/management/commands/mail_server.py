"""Run the local SMTP server that takes replies to turn mails (games/mailplay/smtp.py)."""

import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand

from games.mailplay.smtp import TurnMailController


class Command(BaseCommand):
    help = "Take replies to turn mails by SMTP on MAIL_PLAY_SMTP (host:port, 127.0.0.1:2525)."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default=settings.MAIL_PLAY_SMTP)

    def handle(self, *args, addrport, **options):
        host, _, port = addrport.rpartition(":")
        controller = TurnMailController(hostname=host or "127.0.0.1", port=int(port))
        controller.start()
        self.stdout.write(f"Taking replies to turn mails by SMTP at {addrport}")
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass
        finally:
            controller.stop()
