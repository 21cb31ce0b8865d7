"""Serve the whole app on one machine: web, a Celery worker, Celery beat and the SMTP server that
takes replies to turn mails, stopped together; a background process that dies is started again."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time

import uvicorn
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

# What a connection may hold (docs/operations.md gives the same to production's uvicorn): an idle
# kept-alive connection closed after 5 s, at most 1,000 connections and tasks at once (then 503),
# and a request's headers no larger than 16 kB. Half-sent requests are the proxy's to time out
# (nginx's client_header_timeout); here they count against the 1,000.
UVICORN_LIMITS = {
    "timeout_keep_alive": 5,
    "limit_concurrency": 1000,
    "h11_max_incomplete_event_size": 16 * 1024,
}

# Celery warns at every start when run as root (it cannot know that this is one person's machine
# running JSON-only tasks); `serve` says it once, in words a newcomer can act on, instead.
ROOT_NOTE = (
    "Running as root: fine on your own machine. In production run the worker and beat as an "
    "unprivileged user (see README, Deploying)."
)
RESTART_DELAY_SECONDS = 2


class Child:
    """One background process, started again (after a short pause) whenever it exits."""

    def __init__(self, name: str, argv: list[str], env: dict, write):
        self.name, self.argv, self.env, self.write = name, argv, env, write
        self.stopped = False
        self.process = self.start()

    def start(self) -> subprocess.Popen:
        return subprocess.Popen(self.argv, env=self.env)

    def check(self) -> None:
        code = self.process.poll()
        if code is not None and not self.stopped:
            self.write(f"The {self.name} stopped (exit code {code}); starting it again.")
            time.sleep(RESTART_DELAY_SECONDS)
            self.process = self.start()

    def stop(self) -> None:
        self.stopped = True
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def answers(addrport: str) -> bool:
    host, _, port = addrport.rpartition(":")
    with socket.socket() as probe:
        return probe.connect_ex((host or "127.0.0.1", int(port))) == 0


class Command(BaseCommand):
    help = "Run the web server with a Celery worker and beat beside it (the embedded default)."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--prepare",
            action="store_true",
            help="Migrate, collect the static files and make the bot accounts first (make run).",
        )
        parser.add_argument(
            "--verbose",
            action="store_true",
            help="Log every task the worker runs and every beat, and every table poll.",
        )

    def handle(self, *args, addrport, prepare, verbose, **options):
        host, _, port = addrport.rpartition(":")
        for taken in (addrport, settings.MAIL_PLAY_SMTP):  # a server exits hard on a taken port
            if answers(taken):
                raise CommandError(f"{taken} is already in use: stop what serves there first.")
        if prepare:
            # In this process: each command of its own would load Django again (seconds each).
            call_command("migrate", interactive=False)
            call_command("collectstatic", interactive=False, verbosity=0)
            call_command("ensure_bots")
        level = "INFO" if verbose else "WARNING"
        if "SITE_URL" not in os.environ:  # mail links point at this server, whatever its port
            os.environ["SITE_URL"] = settings.SITE_URL = f"http://{host or '127.0.0.1'}:{port}"
        env = {**os.environ, "PYTHONWARNINGS": "ignore:You're running the worker with superuser"}
        if verbose:
            os.environ["LOG_POLLS"] = "1"
        if os.geteuid() == 0:
            self.stdout.write(ROOT_NOTE)
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        schedule = settings.CELERY_BEAT_SCHEDULE_FILENAME
        write = self.stdout.write
        background = [
            ("worker", [*celery, "worker", "-l", level, "--concurrency", "2"]),
            ("beat", [*celery, "beat", "-l", level, "--schedule", schedule]),
            # Replies to turn mails, by SMTP (games/mailplay/smtp.py).
            ("mail server", [sys.executable, str(settings.BASE_DIR / "manage.py"), "mail_server"]),
        ]
        children: list[Child] = []
        stopping = threading.Event()

        def supervise():
            # The web first: each child loads Django too, and on a machine of two cores they
            # held back the first page by seconds. They start once the web answers.
            while not answers(addrport) and not stopping.wait(0.1):
                pass
            if not stopping.is_set():
                children.extend(Child(name, argv, env, write) for name, argv in background)
            while not stopping.wait(1):
                for child in children:
                    child.check()

        supervisor = threading.Thread(target=supervise, daemon=True)
        supervisor.start()
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        self.stdout.write(self.style.SUCCESS(f"Three Thirteen is at http://{addrport}/"))
        self.stdout.write(f"Replies to turn mails are taken by SMTP at {settings.MAIL_PLAY_SMTP}.")
        if not verbose:
            self.stdout.write("Quiet console: `manage.py serve --verbose` shows tasks and polls.")
        try:
            # ASGI, so that a table's stream of events costs a coroutine (games/events.py); the
            # site's logging settings (log_config=None) keep its console quiet.
            uvicorn.run(
                "config.asgi:application",
                host=host or "127.0.0.1",
                port=int(port),
                log_config=None,
                lifespan="off",
                timeout_graceful_shutdown=2,
                **UVICORN_LIMITS,
            )
        finally:
            stopping.set()
            supervisor.join(timeout=30)
            for child in children:
                child.stop()
