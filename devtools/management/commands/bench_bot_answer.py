"""How long a player at the table waits for a bot's answer: `manage.py serve` (web, worker, beat)
started on a free port with the environment's settings (the embedded default: SQLite and the
filesystem broker under VAR_DIR; REDIS_URL and DATABASE_URL set: Redis and PostgreSQL), a
two-player game against a bot, and Chromium playing the person's turns by clicking. Each answer
is timed from the person's discard shown on their table to the bot's draw and discard shown
there, and split by the moves' times in the database:

- to the bot's draw: the delay before its task runs, the broker handing it over, its thinking;
- to the bot's discard: the same again;
- to the page: the stream (or poll) telling the table, and the table asking for what changed.

The bot's thinking is timed apart, on the same view and random stream the task had, once each
answer is seen. Answers that end a round (more than the bot's two actions) are left out, and
the first, which may wait for the worker to start. The server's log, with each task the worker
ran, is VAR_DIR/bench_bot_answer.log. Run it on a throwaway VAR_DIR, the database too:
`VAR_DIR=$(mktemp -d) python manage.py bench_bot_answer` (docs/benchmarks.md, "A bot's
answer")."""

import os
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.test import Client

from accounts.models import User
from games import services
from games.engine import GameState, Rules
from games.engine.bots import get_bot
from games.models import Game, Move

HOST = "127.0.0.1"
CHOOSER = get_bot("medium")  # the person's play: rounds end soonest


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Answer:
    total: float  # the person's discard shown -> the bot's discard shown, seconds
    to_draw: float  # the person's discard stored -> the bot's draw stored
    to_discard: float  # the bot's draw stored -> its discard stored
    to_page: float  # the bot's discard stored -> shown
    think: float  # the bot's thinking, both actions


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(len(ordered) * 0.9) - 1)]
    return f"median {statistics.median(ordered):5.2f} s, p90 {p90:5.2f} s"


class Command(BaseCommand):
    help = "Time a bot's answer as the player at the table sees it, on a served site."

    def add_arguments(self, parser):
        parser.add_argument("--answers", type=int, default=30, help="answers timed, at most 200")
        parser.add_argument("--bot", default="hard", help="the bot's level")

    def handle(self, *args, answers, bot, **options):
        if not 0 < answers <= 200:
            raise CommandError("Between 1 and 200 answers.")
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("ensure_bots", verbosity=0)
        player = User.objects.create_user(f"bench-{os.getpid()}-{time.time_ns() % 10**6}")
        game = new_game(player, bot)
        port = free_port()
        env = {**os.environ, "MAIL_PLAY_SMTP": f"{HOST}:{free_port()}", "DEBUG": "0"}
        log = open(settings.VAR_DIR / "bench_bot_answer.log", "ab")  # noqa: SIM115
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", f"{HOST}:{port}", "--verbose"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            self.wait_for_server(port)
            timed = self.play(port, player, game, answers, bot)
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()
        broker = "Redis" if settings.REDIS_URL else "the filesystem broker"
        database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        self.stdout.write(
            f"{len(timed)} answers of the {bot} bot ({database}, {broker}, "
            f"BOT_MOVE_DELAY_SECONDS={settings.BOT_MOVE_DELAY_SECONDS}, "
            f"BOT_MOVE_DELAY_WATCHED_SECONDS="
            f"{getattr(settings, 'BOT_MOVE_DELAY_WATCHED_SECONDS', 'none')}):"
        )
        for label, field in (
            ("answer shown", "total"),
            ("  to its draw", "to_draw"),
            ("  to its discard", "to_discard"),
            ("  to the page", "to_page"),
            ("  its thinking", "think"),
        ):
            self.stdout.write(f"{label:<18}{spread([getattr(a, field) for a in timed])}")

    def wait_for_server(self, port: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=2)
                return
            except urllib.error.HTTPError:  # it answers (503 until the worker's first beat)
                return
            except OSError:
                time.sleep(0.2)
        raise CommandError("The server did not answer within 60 s.")

    def play(self, port: int, player: User, game: Game, answers: int, bot: str) -> list[Answer]:
        from playwright.sync_api import sync_playwright

        client = Client()
        client.force_login(player)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the database, beside Playwright's loop
        timed: list[Answer] = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"]
            )
            context = browser.new_context(base_url=f"http://{HOST}:{port}", locale="en")
            context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": context_url(port)}]
            )
            context.set_default_timeout(60_000)
            page = context.new_page()
            page.goto(f"/games/{game.pk}/")
            first = True  # it waits for the worker to start: not counted
            while len(timed) < answers:
                game.refresh_from_db()
                if game.status != Game.Status.ACTIVE:  # another game, as many as it takes
                    game = new_game(player, bot)
                    page.goto(f"/games/{game.pk}/")
                answer = self.turn(page, game, bot)
                if first:
                    first = False
                elif answer is not None:
                    timed.append(answer)
                    self.stdout.write(
                        f"{answer.total:.2f} s = {answer.to_draw:.2f} to the draw, "
                        f"{answer.to_discard:.2f} to the discard, {answer.to_page:.2f} to the page"
                    )
            browser.close()
        return timed

    def turn(self, page, game: Game, bot: str) -> Answer | None:
        """The person's turn by clicking once their table says it is theirs, then the wait for
        the bot's answer; None when the answer was not the bot's draw and discard alone."""
        page.locator("#table .your-turn").wait_for()
        game.refresh_from_db()  # nobody else moves now
        version, round_index = game.version, game.round_index
        # The turn shows before the table's version mark settles: wait for both.
        page.wait_for_function(SHOWS_AT_LEAST, arg=version, polling=10)
        for step in (1, 2):
            game.refresh_from_db()
            state = GameState.from_dict(game.state)
            action = CHOOSER.choose(state.view(state.to_move), random.Random(game.version))
            click(page, action)
            # At least: the bot may have answered already when the page is looked at.
            page.wait_for_function(SHOWS_AT_LEAST, arg=version + step, polling=10)
        shown = time.time()
        game.refresh_from_db()
        if game.round_index != round_index or game.status != Game.Status.ACTIVE:
            return None  # the player's discard ended the round
        page.wait_for_function(YOUR_TURN_AFTER, arg=version + 2, polling=10)
        seen = time.time()
        if shown_version(page) != version + 4:
            return None  # the round ended, and a new one began
        moves = list(Move.objects.filter(game=game, seq__gte=version + 1).order_by("seq")[:3])
        if len(moves) < 3 or not (moves[1].by_bot and moves[2].by_bot):
            return None
        mine, draw, discard = (m.created_at.timestamp() for m in moves)
        return Answer(
            total=seen - shown,
            to_draw=draw - mine,
            to_discard=discard - draw,
            to_page=seen - discard,
            think=think(game, version + 2, bot),
        )


# The version the page shows: the marks swapped in with the table's parts (the table's own
# data-version follows them only once the swap has settled).
SHOWN = "Number(document.querySelector('#table-marks input[name=v]')?.value)"
SHOWS_AT_LEAST = f"v => {SHOWN} >= v"
YOUR_TURN_AFTER = f"v => {SHOWN} > v && document.querySelector('#table .your-turn')"


def shown_version(page) -> int:
    return int(page.evaluate(SHOWN))


def new_game(player: User, bot: str) -> Game:
    return services.game_create(
        creator=player, rules=Rules(), seat_count=2, is_public=False, bot_kind=bot, rated=False
    )


def context_url(port: int) -> str:
    return f"http://{HOST}:{port}/"


def click(page, action) -> None:
    kind = action.to_dict()["type"]
    if kind == "draw":
        page.locator(f"#table .pile.{action.source}").click()
    elif kind == "discard":
        page.locator(f"#table form.hand button[name=card][value='{action.card.token}']").click()
    else:
        page.locator(f"#table form.go-out button[value='{action.card.token}']").click()


def think(game: Game, version: int, bot: str) -> float:
    """The bot's two choices timed again, from `version` on, on the views and random streams its
    tasks had."""
    actions = Move.objects.filter(game=game, seq__lt=version).order_by("seq")
    state = GameState.replay(
        Rules.from_dict(game.rules), game.seat_count, game.seed, [m.action for m in actions]
    )
    spent = 0.0
    for _ in range(2):
        chooser = get_bot(
            bot, seconds=settings.BOT_HARD_SECONDS, time_cap=settings.BOT_HARD_TIME_CAP
        )
        rng = random.Random(f"{game.seed}:bot:{state.action_count}")
        start = time.perf_counter()
        action = chooser.choose(state.view(state.to_move), rng)
        spent += time.perf_counter() - start
        state.apply(action)
    return spent
