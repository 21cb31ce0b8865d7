"""Serve the whole app on one machine: web, a Celery worker and Celery beat, stopped together."""

import signal
import socket
import subprocess
import sys

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Run the web server with a Celery worker and beat beside it (the embedded default)."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")

    def handle(self, *args, addrport, **options):
        host, _, port = addrport.rpartition(":")
        with socket.socket() as probe:  # runserver exits hard on a taken port: check first
            if probe.connect_ex((host or "127.0.0.1", int(port))) == 0:
                raise CommandError(f"{addrport} is already in use: stop what serves there first.")
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        children = [
            subprocess.Popen([*celery, "worker", "--loglevel", "INFO", "--concurrency", "2"]),
            subprocess.Popen(
                [
                    *celery,
                    "beat",
                    "--loglevel",
                    "INFO",
                    "--schedule",
                    settings.CELERY_BEAT_SCHEDULE_FILENAME,
                ]
            ),
        ]
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        self.stdout.write(self.style.SUCCESS(f"Three Thirteen is at http://{addrport}/"))
        try:
            call_command("runserver", addrport, use_reloader=False)
        finally:
            for child in children:
                child.terminate()
            for child in children:
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()
