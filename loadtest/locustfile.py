"""Locust's virtual players for `make loadtest` (started by loadtest/run.py, which seeds the
accounts and games and sets LOADTEST_PLAYERS and LOADTEST_RESULTS).

Each player logs in through the login page, opens the dashboard and its game's table, then
behaves like a browser with the table open: it polls the table's partial at the pace the page
asks for (every 5 s, every second while a bot is to move) with the version and chat count the
page carries, and on its turn thinks a moment, draws (the stock, or the pile when the stock is
refused), thinks again and discards the card the hint advises, or goes out when the table offers
it. It reads all of this from the HTML it is served (loadtest/table.py), as its user would. Now
and then it goes back to the dashboard and reopens the table, and it fetches the cheap
baselines: the web app's manifest (the cheapest view: Django's whole middleware, the session
and the player, no other query), a static file (whitenoise, before Django's views) and /healthz.

Timings are recorded from LOADTEST_WARMUP seconds after every player has arrived until the run
stops, per kind of request; the summary (p50, p95, p99, requests per second, errors) goes to
LOADTEST_RESULTS as JSON."""

import json
import os
import random
import re
import time
from collections import defaultdict

import gevent
from locust import FastHttpUser, events, task
from locust.exception import StopUser

from loadtest.stats import percentile
from loadtest.table import Table, csrf_token, parse_table

THINK_SECONDS = [float(s) for s in os.environ.get("LOADTEST_THINK", "1,3").split(",")]
# Recording starts this long after the last player arrived: logins done, every gunicorn worker
# past its first requests (templates compiled, connections open).
WARMUP_SECONDS = float(os.environ.get("LOADTEST_WARMUP", "10"))
CHEAP_EVERY_SECONDS = 10  # each player fetches the manifest this often
BASELINES_EVERY_SECONDS = 30  # and the static file and /healthz this often
REVISIT_CHANCE = 0.25  # after a turn, the chance the player looks at the dashboard and back
STATIC_SCRIPT = re.compile(r'<script src="(/static/js/table[^"]*)"')

with open(os.environ["LOADTEST_PLAYERS"]) as players_file:
    ACCOUNTS = iter(json.load(players_file))


class Recorder:
    """Latencies (ms) and errors per kind of request, kept while `on` is set."""

    def __init__(self):
        self.on = False
        self.started = self.stopped = None
        self.times = defaultdict(list)
        self.errors = defaultdict(int)
        self.error_samples = []

    def start(self):
        self.on, self.started = True, time.monotonic()

    def stop(self):
        if self.on:
            self.on, self.stopped = False, time.monotonic()

    def add(self, kind: str, ms: float, error: str | None = None):
        if not self.on:
            return
        self.times[kind].append(ms)
        if error:
            self.errors[kind] += 1
            if len(self.error_samples) < 20:
                self.error_samples.append(f"{kind}: {error}")

    def summary(self) -> dict:
        seconds = (self.stopped or time.monotonic()) - (self.started or time.monotonic())
        kinds = {}
        for kind, times in self.times.items():
            ordered = sorted(times)
            kinds[kind] = {
                "count": len(ordered),
                "errors": self.errors[kind],
                "rps": len(ordered) / seconds if seconds else 0.0,
                **{f"p{q}": percentile(ordered, q) for q in (50, 95, 99)},
            }
        return {
            "seconds": seconds,
            "kinds": kinds,
            "error_samples": self.error_samples,
        }


RECORDER = Recorder()


@events.spawning_complete.add_listener
def _all_arrived(user_count, **kwargs):
    gevent.spawn_later(WARMUP_SECONDS, RECORDER.start)


@events.test_stopping.add_listener
def _stopping(**kwargs):
    RECORDER.stop()


@events.quitting.add_listener
def _write_results(environment, **kwargs):
    RECORDER.stop()
    with open(os.environ["LOADTEST_RESULTS"], "w") as out:
        json.dump(RECORDER.summary(), out, indent=1)


class Player(FastHttpUser):
    # The task paces itself (the table's poll interval, a player's thinking).
    wait_time = staticmethod(lambda: 0)

    def on_start(self):
        account = next(ACCOUNTS, None)
        if account is None:
            raise StopUser()
        self.game = account["game"]
        self.csrf = None
        self.table: Table | None = None
        self.static_url = "/static/js/table.js"
        now = time.monotonic()
        self.next_cheap = now + random.uniform(0, CHEAP_EVERY_SECONDS)
        self.next_baselines = now + random.uniform(0, BASELINES_EVERY_SECONDS)
        self.log_in(account["username"], account["password"])
        self.open_dashboard()
        self.open_table()
        gevent.sleep(random.uniform(0, self.table.poll_seconds if self.table else 1))

    # -- requests, each timed and judged ---------------------------------------------------

    def fetch(self, kind, method, url, *, expect=(200,), htmx=False, data=None):
        """Send a request as the browser would (htmx's headers for the table's requests) and
        record its time under `kind`, or under `kind(status)` when it is a function."""
        headers = {"HX-Request": "true", "HX-Target": "table"} if htmx else {}
        if method == "POST" and self.csrf:
            headers["X-CSRFToken"] = self.csrf
        start = time.perf_counter()
        response = self.client.request(
            method, url, name=kind if isinstance(kind, str) else url.split("?")[0],
            data=data, headers=headers, allow_redirects=False,
        )  # fmt: skip
        ms = (time.perf_counter() - start) * 1000
        status = response.status_code
        error = None if status in expect else f"{method} {url} answered {status}"
        RECORDER.add(kind if isinstance(kind, str) else kind(status), ms, error)
        return response, ms

    def log_in(self, username, password):
        page, _ms = self.fetch("login page", "GET", "/accounts/login/")
        self.csrf = csrf_token(page.text or "")
        data = {"login": username, "password": password}
        self.fetch("login", "POST", "/accounts/login/", data=data, expect=(302,))

    def open_dashboard(self):
        self.fetch("dashboard", "GET", "/")

    def open_table(self):
        page, _ms = self.fetch("table", "GET", f"/games/{self.game}/")
        self.csrf = csrf_token(page.text or "") or self.csrf  # the login rotated it
        if script := STATIC_SCRIPT.search(page.text or ""):
            self.static_url = script.group(1)
        self.read(page)

    def read(self, response):
        table = parse_table(response.text or "")
        if table is not None:
            self.table = table

    def move(self, action, field, value):
        data = {field: value, "version": str(self.table.version)}
        if self.table.chat is not None:  # as the browser sends the form's hidden fields
            data["c"] = self.table.chat
        url = f"/games/{self.game}/{action}/"
        response, ms = self.fetch("move", "POST", url, htmx=True, data=data)
        RECORDER.add(f"move: {action}", ms)
        self.read(response)

    # -- the player --------------------------------------------------------------------------

    @task
    def play(self):
        self.baselines()
        table = self.table
        if table is None or table.over:  # nothing left to play: look at the dashboard now and then
            gevent.sleep(5)
            self.open_dashboard()
            return
        if table.sources:  # my turn: draw
            self.think()
            self.move("draw", "source", "stock" if "stock" in table.sources else "discard")
            table = self.table
        if table.go_out or table.discards:  # my turn, drawn: end it
            self.think()
            if table.go_out:
                self.move("go-out", "card", table.go_out[0])
            else:
                self.move("discard", "card", table.advised_discard())
            if random.random() < REVISIT_CHANCE:
                self.open_dashboard()
                self.open_table()
            return
        if table.sources:  # the draw was refused: the table it answered says what now
            return
        gevent.sleep(table.poll_seconds)
        poll, _ms = self.fetch(poll_kind, "GET", table.poll_url, htmx=True, expect=(200, 204))
        if poll.status_code == 200:
            self.read(poll)

    def think(self):
        gevent.sleep(random.uniform(*THINK_SECONDS))

    def baselines(self):
        now = time.monotonic()
        if now >= self.next_cheap:
            self.next_cheap = now + CHEAP_EVERY_SECONDS
            self.fetch("cheap: manifest", "GET", "/manifest.webmanifest")
        if now >= self.next_baselines:
            self.next_baselines = now + BASELINES_EVERY_SECONDS
            self.fetch("cheap: static file", "GET", self.static_url)
            self.fetch("healthz", "GET", "/healthz")


def poll_kind(status: int) -> str:
    return "poll, unchanged (204)" if status == 204 else "poll, changed"
