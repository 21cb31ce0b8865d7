"""Locust's virtual players for `make loadtest` (started by loadtest/run.py, which seeds the
accounts and games and sets LOADTEST_PLAYERS and LOADTEST_RESULTS).

Each player logs in through the login page, opens the dashboard and its game's table, then
behaves like a browser with the table open. With LOADTEST_TABLE=events (the default) it keeps the
table's stream of events open (/games/N/events/, read by a greenlet of its own, as table.js's
EventSource), and at each "changed" fetches the table's partial as the page's refresh does (htmx's
headers, the version and chat count the page carries); a player who was waiting, not moving,
records the time from the event's publication (its `t`) to the fetched table showing that version
as "move seen" (the other player's or the bot's move, seen). While the stream is open the table
polls only once a minute, a fallback; where there is none (the server answers 204: WSGI) it polls
as with LOADTEST_TABLE=poll: at the pace the page asks for (every 5 s, every second while a bot is
to move), with the version and chat count the page carries. On its turn it thinks a moment, draws
(the stock, or the pile when the stock is refused), thinks again and discards the card the hint
advises, or goes out when the table offers it. It reads all of this from the HTML it is served
(loadtest/table.py), as its user would. Now and then it goes back to the dashboard and reopens
the table (and its stream), and it fetches the cheap baselines: the web app's manifest (the
cheapest view: Django's whole middleware, the session and the player, no other query), a static
file (whitenoise, before Django's views) and /healthz.

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
import gevent.event
from geventhttpclient import HTTPClient
from geventhttpclient.url import URL
from locust import FastHttpUser, events, task
from locust.exception import StopUser

from loadtest.sse import read_events
from loadtest.stats import percentile
from loadtest.table import Table, csrf_token, parse_table

THINK_SECONDS = [float(s) for s in os.environ.get("LOADTEST_THINK", "1,3").split(",")]
# Recording starts this long after the last player arrived: logins done, every gunicorn worker
# past its first requests (templates compiled, connections open).
WARMUP_SECONDS = float(os.environ.get("LOADTEST_WARMUP", "10"))
CHEAP_EVERY_SECONDS = 10  # each player fetches the manifest this often
BASELINES_EVERY_SECONDS = 30  # and the static file and /healthz this often
REVISIT_CHANCE = 0.25  # after a turn, the chance the player looks at the dashboard and back
TABLE_MODE = os.environ.get("LOADTEST_TABLE", "events")
EVENTS_HOST = os.environ.get(
    "LOADTEST_EVENTS_HOST", ""
)  # else the pages' own  # or "poll": the table before events
FALLBACK_SECONDS = 60  # with the stream open, the table's timed poll runs this seldom (table.js)
STREAM_OPENINGS = 30  # per table opened: the stream is reconnected at most this often
STREAM_RETRY_SECONDS = 2  # the stream's retry hint (games/events.py)
STREAM_TIMEOUT_SECONDS = 40  # silence on the stream for longer than this is a lost stream
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


def take_account() -> dict:
    """The next seeded player for a virtual one; none left: that one stops."""
    account = next(ACCOUNTS, None)
    if account is None:
        raise StopUser()
    return account


class Player(FastHttpUser):
    weight = 4  # to ApiPlayer's 1: one player in five is a program on the API
    # The task paces itself (the table's poll interval, a player's thinking).
    wait_time = staticmethod(lambda: 0)

    def on_start(self):
        account = take_account()
        self.game = account["game"]
        self.csrf = None
        self.table: Table | None = None
        self.listener: gevent.Greenlet | None = None
        self.stream_live = False  # the stream of events is open: the table polls once a minute
        self.moving = False  # a move of this player's is on its way
        self.changed = gevent.event.Event()  # the stream said "changed" and the table was fetched
        self.last_asked = time.monotonic()  # the table's last GET (table.js's lastAsked)
        self.static_url = "/static/js/table.js"
        now = time.monotonic()
        self.next_cheap = now + random.uniform(0, CHEAP_EVERY_SECONDS)
        self.next_baselines = now + random.uniform(0, BASELINES_EVERY_SECONDS)
        self.log_in(account["username"], account["password"])
        self.open_dashboard()
        self.open_table()
        gevent.sleep(random.uniform(0, self.table.poll_seconds if self.table else 1))

    def on_stop(self):
        if self.listener is not None:
            self.listener.kill(block=False)

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
        if TABLE_MODE == "events":  # a page (re)loaded: its EventSource is a new one
            if self.listener is not None:
                self.listener.kill()
            self.listener = gevent.spawn(self.listen)

    def read(self, response):
        """Keep the table a response shows, unless an answer to an older request shows an older
        version than the one kept (the stream's fetches run beside the player's moves)."""
        table = parse_table(response.text or "", self.table)
        if table is not None and (self.table is None or table.version >= self.table.version):
            self.table = table

    def ask_table(self, kind):
        """The table's GET, as its poll or its refresh sends it."""
        self.last_asked = time.monotonic()
        poll, ms = self.fetch(kind, "GET", self.table.ask_url, htmx=True, expect=(200, 204))
        if poll.status_code == 200:
            self.read(poll)
        return poll, ms

    def move(self, action, field, value):
        # As the browser sends it: the form's fields and the marks of what the page holds.
        data = {**self.table.marks, field: value, "version": str(self.table.version)}
        url = f"/games/{self.game}/{action}/"
        self.moving = True
        try:
            response, ms = self.fetch("move", "POST", url, htmx=True, data=data)
            RECORDER.add(f"move: {action}", ms)
            self.read(response)
        finally:
            self.moving = False

    # -- the stream of events (a greenlet per table opened) ---------------------------------

    def listen(self):
        """Keep the table's stream open while the game goes on, reconnecting after the server
        closes it (at most STREAM_OPENINGS times); stop when it answers 204 (no stream here:
        the table polls) or the game is over."""
        # The streams' own server where the site has one (loadtest/run.py --server split).
        client = HTTPClient.from_url(
            URL(EVENTS_HOST or self.host), concurrency=1, connection_timeout=10,
            network_timeout=STREAM_TIMEOUT_SECONDS,
        )  # fmt: skip
        try:
            for _opening in range(STREAM_OPENINGS):
                table = self.table
                if table is None or table.over or not table.events_url:
                    return
                if not self.stream_once(client, table.events_url):
                    return
                gevent.sleep(STREAM_RETRY_SECONDS)
        finally:
            self.stream_live = False
            client.close()

    def stream_once(self, client, url) -> bool:
        """One connection of the stream, read to its end; whether to reconnect."""
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.client.cookiejar)
        headers = {"Accept": "text/event-stream", "Cookie": cookies}
        start = time.perf_counter()
        try:
            response = client.get(url, headers=headers)
        except Exception as error:  # refused, reset, timed out: try again later
            RECORDER.add("events: stream opened", _ms_since(start), f"GET {url}: {error!r}")
            return True
        status = response.status_code
        error = None if status in (200, 204) else f"GET {url} answered {status}"
        RECORDER.add("events: stream opened", _ms_since(start), error)
        if status != 200:
            response.release()
            return status != 204
        self.stream_live = True
        try:
            for event in read_events(lambda: response.readline(b"\n")):
                if event.name == "changed" and not self.heard(json.loads(event.data)):
                    return False
        except Exception as error:  # the stream lost (a timeout, a reset)
            RECORDER.add("events: stream lost", 0.0, f"{url}: {error!r}")
        finally:
            self.stream_live = False
            response.release()
        return True

    def heard(self, data: dict) -> bool:
        """The table's answer to "changed", as the page's refresh; whether the game goes on."""
        table = self.table
        if table is None or table.over:
            return False
        # Waiting (not this player's turn, no move of theirs on its way): the change is another's.
        waiting = not self.moving and not table.my_turn
        # Its own move's answer on its way (the event comes first): wait for it, as table.js.
        deadline = time.monotonic() + 10
        while self.moving and time.monotonic() < deadline:
            gevent.sleep(0.01)
        table = self.table
        before = table.version
        known = data.get("v") is not None and data["v"] <= before
        if known and not data.get("chat") and not data.get("over"):
            self.changed.set()  # a move the table shows already (its own): as table.js, no fetch
            return True
        self.ask_table(on_event_kind)
        version, published = data.get("v"), data.get("t")
        if waiting and version is not None and before < version <= self.table.version:
            RECORDER.add("move seen", (time.time() - published) * 1000)
        self.changed.set()
        return not self.table.over

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
        if self.stream_live:
            self.await_change()
            return
        gevent.sleep(table.poll_seconds)
        self.ask_table(poll_kind)

    def await_change(self):
        """With the stream open: wait for its "changed" (the greenlet fetched the table), up to
        the next baseline; poll when the table has not asked for FALLBACK_SECONDS."""
        self.changed.clear()
        due = self.last_asked + FALLBACK_SECONDS
        until = min(due, self.next_cheap, self.next_baselines)
        if self.changed.wait(timeout=max(0.0, until - time.monotonic())):
            return
        if time.monotonic() >= due and self.table is not None and not self.table.over:
            self.ask_table(poll_kind)

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


class ApiPlayer(FastHttpUser):
    """A program playing its seat through the API (docs/api.md) with its token, as
    examples/bot_client.py does: it looks at its view every API_POLL_SECONDS, and on its turn
    thinks, draws from the stock and discards the card its view allows first (or goes out when it
    may). Its weight to Player's 4: one player in five (LOADTEST_API_PLAYERS=0: none)."""

    weight = int(os.environ.get("LOADTEST_API_PLAYERS", "1"))
    wait_time = staticmethod(lambda: 0)

    def on_start(self):
        account = take_account()
        self.game = account["game"]
        self.headers = {"Authorization": f"Bearer {account['token']}"}
        self.view = None
        gevent.sleep(random.uniform(0, API_POLL_SECONDS))

    def call(self, kind, method, path, body=None, expect=(200,)):
        start = time.perf_counter()
        response = self.client.request(
            method, f"/api/v1{path}", name=kind, json=body, headers=self.headers,
        )  # fmt: skip
        status = response.status_code
        error = None if status in expect else f"{method} {path} answered {status}"
        RECORDER.add(kind, _ms_since(start), error)
        return response if status == 200 else None

    @task
    def play(self):
        response = self.call("api: view", "GET", f"/games/{self.game}/view", expect=(200, 409))
        view = response.json() if response is not None else None
        actions = view["legal_actions"] if view else []
        if not actions:
            if view is not None and view.get("is_over"):
                raise StopUser()
            gevent.sleep(API_POLL_SECONDS)
            return
        gevent.sleep(random.uniform(*THINK_SECONDS))
        version = view["version"]
        if actions[0]["type"] == "draw":
            body = {"version": version, "source": "stock"}
            path = f"/games/{self.game}/draw"
        else:
            out = [a for a in actions if a["type"] == "go_out"]
            chosen = out[0] if out else next(a for a in actions if a["type"] == "discard")
            body = {"version": version, "card": chosen["card"]}
            path = f"/games/{self.game}/{'go-out' if out else 'discard'}"
        self.call("api: move", "POST", path, body, expect=(200, 409))


API_POLL_SECONDS = 2  # as examples/bot_client.py's default


def poll_kind(status: int) -> str:
    return "poll, unchanged (204)" if status == 204 else "poll, changed"


def on_event_kind(status: int) -> str:
    return "on event, unchanged (204)" if status == 204 else "on event, changed"


def _ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000
