"""Password guessing against a real server: six threads post wrong passwords for one account for
a few seconds while another thread times /healthz, before and during. Prints how many attempts
were checked (a password hashed, 400) and how many refused before any hashing (429), and what the
guessing did to /healthz. Run by `make bench` on a throwaway VAR_DIR (a server of its own on
127.0.0.1, the embedded default's settings and their real password hasher)."""

import http.cookiejar
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from accounts.models import User


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def timed_get(url: str) -> float:
    start = time.perf_counter()
    try:
        urllib.request.urlopen(url, timeout=30).read()
    except urllib.error.HTTPError as error:
        error.read()
    return (time.perf_counter() - start) * 1000


def summary(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"p50 {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   (n={len(ordered)})"


class Guesser(threading.Thread):
    """Posts wrong passwords for one account, as a browser would (CSRF cookie and token)."""

    def __init__(self, base: str, login: str, stop: threading.Event, limit: int):
        super().__init__(daemon=True)
        self.base, self.login, self.stop, self.limit = base, login, stop, limit
        self.statuses: Counter = Counter()

    def run(self):
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        page = opener.open(f"{self.base}/accounts/login/", timeout=30).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        for attempt in range(self.limit):
            if self.stop.is_set():
                return
            body = urllib.parse.urlencode(
                {"csrfmiddlewaretoken": token, "login": self.login, "password": f"guess{attempt}"}
            ).encode()
            request = urllib.request.Request(
                f"{self.base}/accounts/login/", body, headers={"Referer": self.base + "/"}
            )
            try:
                status = opener.open(request, timeout=30).status
            except urllib.error.HTTPError as error:
                error.read()
                status = error.code
            self.statuses[status] += 1


class Command(BaseCommand):
    help = "Time /healthz while six threads guess one account's password."

    def add_arguments(self, parser):
        parser.add_argument("--threads", type=int, default=6)
        parser.add_argument("--seconds", type=float, default=15)

    def handle(self, *args, threads, seconds, **options):
        call_command("migrate", verbosity=0)
        User.objects.filter(username="victim").delete()
        User.objects.create_user("victim", "victim@example.com", "the right one 123")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local", "DEBUG": "0"}
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            self._wait_for(base)
            self._measure(base, threads, seconds)
        finally:
            server.terminate()
            server.wait(timeout=10)

    def _wait_for(self, base: str) -> None:
        for _ in range(100):
            try:
                timed_get(f"{base}/healthz")
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("the server did not start")

    def _measure(self, base: str, threads: int, seconds: float) -> None:
        health = f"{base}/healthz"
        idle = [timed_get(health) for _ in range(40)]
        stop = threading.Event()
        guessers = [Guesser(base, "victim", stop, limit=1000) for _ in range(threads)]
        for guesser in guessers:
            guesser.start()
        busy, deadline = [], time.monotonic() + seconds
        while time.monotonic() < deadline:
            busy.append(timed_get(health))
            time.sleep(0.05)
        stop.set()
        for guesser in guessers:
            guesser.join(timeout=60)
        statuses = sum((g.statuses for g in guessers), Counter())
        attempts = sum(statuses.values())
        self.stdout.write(f"password guessing, {threads} threads for {seconds:.0f} s, one account")
        self.stdout.write(f"  /healthz alone:          {summary(idle)}")
        self.stdout.write(f"  /healthz while guessing: {summary(busy)}")
        self.stdout.write(
            f"  {attempts} attempts: {statuses.get(400, 0)} checked (400), "
            f"{statuses.get(429, 0)} refused before hashing (429), "
            f"others {dict((k, v) for k, v in statuses.items() if k not in (400, 429))}"
        )
