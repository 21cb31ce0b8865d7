"""Password guessing against a real server, as deployed: gunicorn with sync workers on production's
settings over plain HTTP (config.settings.plainhttp: the real password hasher, the database and
Redis of the environment), listening on 127.0.0.1. Two floods, each while another thread times
/healthz every 50 ms, before and during:

- one account: six threads post wrong passwords for it from one address, flat out;
- eight addresses: each (a 127.x.y.z address of its own, so the server sees eight clients) posts
  wrong logins in a loop, each for an account no one has, so that only the per-address limits
  hold it back (10 hashed failures a minute): flat out, then waiting a second after each refusal
  (429 or 503), as a script that wants its guesses checked rather than refused would. Flat out,
  the refusals themselves are a flood of cheap requests that a proxy's per-address request limit
  is for; the second shows what the guesses that get through cost the pages.

Prints /healthz p50 and p95 alone and during each flood, and how the attempts were answered:
checked (a password hashed, 400), refused by a rate limit before any hashing (429), refused
because the site was already hashing as many passwords as it allows at once (503). Run by `make
bench` on a throwaway VAR_DIR."""

import http.client
import os
import random
import re
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Browser:
    """One client at one source address, keeping its cookies, one connection a request (gunicorn's
    sync workers close each)."""

    def __init__(self, port: int, address: str = HOST):
        self.port, self.address = port, address
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        connection = http.client.HTTPConnection(
            HOST, self.port, timeout=60, source_address=(self.address, 0)
        )
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers |= {"Content-Type": "application/x-www-form-urlencoded",
                        "Referer": f"http://{HOST}:{self.port}/"}  # fmt: skip
        try:
            connection.request(method, path, body, headers)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, text
        finally:
            connection.close()

    def csrf_token(self) -> str:
        _status, page = self.request("GET", "/accounts/login/")
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def timed_health(port: int) -> float:
    start = time.perf_counter()
    Browser(port).request("GET", "/healthz")
    return (time.perf_counter() - start) * 1000


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


class Guesser(threading.Thread):
    """Posts wrong logins from one address until told to stop: for `login`, or for a made-up
    account each time when `login` is None."""

    def __init__(self, port: int, address: str, login: str | None, pause: float, *,
                 stop: threading.Event):  # fmt: skip
        super().__init__(daemon=True)
        self.browser = Browser(port, address)
        self.login, self.stop, self.pause = login, stop, pause
        self.statuses: Counter = Counter()

    def run(self):
        token = self.browser.csrf_token()
        for attempt in range(100_000):
            if self.stop.is_set():
                return
            login = self.login or f"nobody-{secrets.token_hex(4)}"
            form = {"csrfmiddlewaretoken": token, "login": login, "password": f"guess{attempt}"}
            status, _page = self.browser.request("POST", "/accounts/login/", form)
            self.statuses[status] += 1
            if status in (429, 503) and self.pause:
                self.stop.wait(self.pause)


class Command(BaseCommand):
    help = "Time /healthz on gunicorn while one account, then eight addresses, guess passwords."

    def add_arguments(self, parser):
        parser.add_argument("--workers", type=int, default=3, help="gunicorn's sync workers")
        parser.add_argument("--seconds", type=float, default=20, help="each flood, at most 120")

    def handle(self, *args, workers, seconds, **options):
        if not 0 < seconds <= 120 or not 0 < workers <= 16:
            raise CommandError("Bounded: at most 120 s a flood and 16 workers.")
        call_command("migrate", verbosity=0)
        victim = f"victim-{secrets.token_hex(4)}"  # counters of earlier runs stay in Redis
        User.objects.create_user(victim, f"{victim}@example.com", "the right one 123")
        port = free_port()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.plainhttp",
            "SECRET_KEY": secrets.token_urlsafe(64),
            "ALLOWED_HOSTS": HOST,
            "DEBUG": "0",
            "LOG_LEVEL": "WARNING",
        }
        manage = [sys.executable, "manage.py"]
        subprocess.run(
            [*manage, "collectstatic", "--noinput", "-v", "0"],
            cwd=settings.BASE_DIR, env=env, check=True,
        )  # fmt: skip
        log = Path(settings.VAR_DIR) / "gunicorn.log"
        with log.open("w") as out:
            server = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(workers),
                 "--bind", f"{HOST}:{port}", "--graceful-timeout", "5"],
                cwd=settings.BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        try:
            self._wait_for(port, server)
            redis = (
                "Redis" if os.environ.get("REDIS_URL") else "no Redis (each worker counts alone)"
            )
            self.stdout.write(
                f"gunicorn, {workers} sync workers, config.settings.plainhttp, "
                f"{settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, {redis}"
            )
            addresses = [f"127.{random.randint(1, 254)}.{random.randint(0, 255)}.{n + 2}"
                         for n in range(9)]  # fmt: skip
            self._flood(port, "one account, six threads from one address, flat out", seconds,
                        [(addresses[0], victim, 0)] * 6)  # fmt: skip
            self._flood(port, "eight addresses, made-up accounts, flat out", seconds,
                        [(address, None, 0) for address in addresses[1:]])  # fmt: skip
            others = [f"127.{random.randint(1, 254)}.{random.randint(0, 255)}.{n + 2}"
                      for n in range(8)]  # fmt: skip
            self._flood(port, "eight addresses, made-up accounts, a second's pause after a "
                        "refusal", seconds, [(a, None, 1.0) for a in others])  # fmt: skip
        finally:
            server.terminate()
            server.wait(timeout=20)
        errors = log.read_text(errors="replace").count("Traceback")
        self.stdout.write(f"server errors logged: {errors}")

    def _wait_for(self, port: int, server: subprocess.Popen) -> None:
        for _ in range(300):
            if server.poll() is not None:
                raise CommandError("gunicorn exited; its log is gunicorn.log in VAR_DIR")
            try:
                timed_health(port)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise CommandError("the server did not start")
        for _ in range(20):  # each worker's first requests load what later ones find ready
            Browser(port).csrf_token()
            timed_health(port)

    def _flood(self, port: int, label: str, seconds: float, guessers: list) -> None:
        quiet = []
        for _ in range(40):
            quiet.append(timed_health(port))
            time.sleep(0.05)
        stop = threading.Event()
        threads = [Guesser(port, *guesser, stop=stop) for guesser in guessers]
        for thread in threads:
            thread.start()
        busy, deadline = [], time.monotonic() + seconds
        while time.monotonic() < deadline:
            busy.append(timed_health(port))
            time.sleep(0.05)
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        statuses = sum((t.statuses for t in threads), Counter())
        others = {k: v for k, v in statuses.items() if k not in (400, 429, 503)}
        (quiet50, quiet95), (busy50, busy95) = percentiles(quiet), percentiles(busy)
        self.stdout.write(f"{label}, {seconds:.0f} s:")
        self.stdout.write(f"  /healthz alone:    p50 {quiet50:7.1f} ms   p95 {quiet95:7.1f} ms")
        self.stdout.write(
            f"  /healthz during:   p50 {busy50:7.1f} ms   p95 {busy95:7.1f} ms   "
            f"(n={len(busy)}; p95 {busy95 / quiet95:.1f}x alone)"
        )
        self.stdout.write(
            f"  {sum(statuses.values())} attempts: {statuses[400]} checked (400), "
            f"{statuses[429]} refused by a limit (429), {statuses[503]} refused while the "
            f"site hashed its most at once (503), others {others}"
        )
