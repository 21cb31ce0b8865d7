"""Games through a real Celery worker on Redis, against PostgreSQL: bot turns, 'your turn' mail
and its links, a reminder sent once by two sweeps, and a worker killed in the middle of a bot's
move (a separate process, SIGKILLed, then restarted)."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.core import mail
from django.db import OperationalError, connection, transaction
from django.urls import reverse

from accounts.selectors import preferences_of
from config.celery import app as celery_app
from games import tasks
from games.engine import GameState
from games.models import Game, Move, Notification
from games.notifications import presence
from games.selectors.history import replayed_state
from tests.factories import UserFactory, started_game
from tests.workers import clear_broker, wait_for, worker_has_drained

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def fresh(game) -> Game:
    game.refresh_from_db()
    return game


def play_human_turn(client, game):
    """Draw from the stock and discard, through the pages, as the player would."""
    game = fresh(game)
    response = client.post(
        reverse("move_draw", kwargs={"game_id": game.pk}),
        {"source": "stock", "version": game.version},
    )
    assert response.status_code == 302, response.content
    game = fresh(game)
    view = GameState.from_dict(game.state).view(game.to_move_seat)
    card = next(a for a in view.legal_actions if a.to_dict()["type"] in ("discard", "go_out"))
    target = "move_discard" if card.to_dict()["type"] == "discard" else "move_go_out"
    response = client.post(
        reverse(target, kwargs={"game_id": game.pk}),
        {"card": card.card.token, "version": game.version},
    )
    assert response.status_code == 302, response.content


def assert_log_is_whole(game):
    """No move lost, none doubled: one move per number, and the log replays to the state."""
    game = fresh(game)
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(game.version))
    assert replayed_state(game).to_dict() == game.state


def test_bot_turns_in_a_human_and_bot_game_arrive_through_the_worker(worker, client):
    assert connection.vendor == "postgresql" and celery_app.conf.broker_url.startswith("redis")
    human = UserFactory()
    client.force_login(human)
    game = started_game([human], seat_count=2, bots="easy")
    human_seat = game.seats.get(user=human).index
    for _turn in range(4):
        assert wait_for(lambda: fresh(game).to_move_seat == human_seat or game.status != "active")
        if game.status != Game.Status.ACTIVE:
            break
        before = game.version
        play_human_turn(client, game)
        assert fresh(game).version == before + 2
        # The bot's draw and discard come from the worker, then it is the human's turn again.
        assert wait_for(lambda: fresh(game).to_move_seat == human_seat)
    bot_moves = Move.objects.filter(game=game).exclude(seat=human_seat)
    assert bot_moves.count() >= 8 and all(bot_moves.values_list("by_bot", flat=True))
    assert not Move.objects.filter(game=game, seat=human_seat, by_bot=True).exists()
    assert worker_has_drained()
    assert_log_is_whole(game)


def test_your_turn_emails_are_sent_by_the_worker_and_their_links_work(worker, client):
    alice, bob = UserFactory(), UserFactory()
    game = started_game([alice, bob], seat_count=3, bots="easy", time_per_move_days=2)
    alice_seat, bob_seat = (game.seats.get(user=u).index for u in (alice, bob))

    def mail_to(user):  # the turn mails (Bob may also hear that the game started)
        return [m for m in mail.outbox if m.to == [user.email] and "Your turn" in m.subject]

    def play_until(done, timeout=60.0):
        """Alice plays through the pages, the worker plays the bot, until done()."""
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, "the game did not get there"
            if fresh(game).to_move_seat == alice_seat:
                client.force_login(alice)
                play_human_turn(client, game)
            else:
                time.sleep(0.05)

    play_until(lambda: mail_to(bob))
    [message] = mail_to(bob)
    assert message.subject == f"Your turn in game #{game.pk}"
    assert fresh(game).to_move_seat == bob_seat
    html = next(body for body, kind in message.alternatives if kind == "text/html")
    links = set(re.findall(r"https?://[^\s\"<>]+", message.body))
    assert links == set(re.findall(r"https?://[^\s\"<>]+", html))
    play = next(link for link in links if link.endswith(f"/games/{game.pk}/"))
    unsubscribe = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe in links

    # The one-click link back: Bob's table, his turn.
    client.force_login(bob)
    page = client.get(urlsplit(play).path)
    assert page.status_code == 200 and "Your turn" in page.content.decode()
    # The unsubscribe link, as a mail client's one-click POST, without a session.
    client.logout()
    response = client.post(
        urlsplit(unsubscribe).path,
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert preferences_of(bob).turn_mail == "off"
    client.force_login(bob)
    bobs_turn = fresh(game).turn_version
    play_human_turn(client, game)
    # Around the table once more: Bob's next turn brings him no mail.
    play_until(lambda: fresh(game).to_move_seat == bob_seat and game.turn_version != bobs_turn)
    assert worker_has_drained()
    assert len(mail_to(bob)) == 1
    turn = Notification.objects.filter(user=bob, turn=game.turn_version)
    assert list(turn.values_list("status", "reason")) == [("skipped", "preference")]
    assert mail_to(alice), "Alice still gets hers"


def test_a_moves_request_id_follows_it_into_the_task_and_the_mail_it_sent(worker, client, caplog):
    """games/tracing.py: the discard's request id (said back in X-Request-ID) is on the worker's
    line for the mail's task and on the line of the mail it sent; a proxy's id is kept."""
    import logging

    caplog.set_level(logging.INFO, logger="threethirteen")
    alice, bob = UserFactory(), UserFactory()
    game = started_game([alice, bob])
    mover, waiting = (alice, bob) if game.seats.get(user=alice).index == game.to_move_seat else (
        bob, alice)  # fmt: skip
    client.force_login(mover)
    game = fresh(game)
    client.post(reverse("move_draw", args=[game.pk]), {"source": "stock", "version": game.version})
    game = fresh(game)
    view = GameState.from_dict(game.state).view(game.to_move_seat)
    card = next(a.card for a in view.legal_actions if a.to_dict()["type"] == "discard")
    response = client.post(
        reverse("move_discard", args=[game.pk]),
        {"card": card.token, "version": game.version},
        HTTP_X_REQUEST_ID="proxy-given-id-0001",
    )
    assert response.status_code == 302 and response["X-Request-ID"] == "proxy-given-id-0001"

    def lines(logger):
        return [r for r in caplog.records if r.name == logger]

    def mail_line():
        return [r for r in lines("threethirteen.mail") if r.to_user == waiting.pk]

    assert wait_for(mail_line)
    assert {r.request_id for r in mail_line()} == {"proxy-given-id-0001"}

    def sent_by():  # the task's own line comes once it returns, after the mail's
        tasks = lines("threethirteen.task")
        return {r.request_id for r in tasks if r.task == "games.tasks.send_notification"}

    assert wait_for(lambda: "proxy-given-id-0001" in sent_by())
    [request] = [r for r in lines("threethirteen.request") if r.path.endswith("/discard/")]
    assert request.request_id == "proxy-given-id-0001" and request.status == 302
    client.get(reverse("home"), HTTP_X_REQUEST_ID="<script>")  # not an id: a new one is made
    assert lines("threethirteen.request")[-1].request_id not in ("", "<script>")


@pytest.fixture
def received_lines():
    """Celery's "received" lines logged, asked for before the worker starts: its strategy reads
    the logger's level once, when it is made."""
    import logging

    strategy = logging.getLogger("celery.worker.strategy")
    level = strategy.level
    strategy.setLevel(logging.INFO)
    yield
    strategy.setLevel(level)


def test_the_workers_received_line_carries_the_request_id_as_its_later_lines_do(
    received_lines, worker, caplog
):
    """Celery logs "Task … received" as it takes the message, before the task runs: that line
    too carries the id the task was queued with (games/tracing.py)."""
    import logging

    from games.models import Heartbeat
    from games.tracing import REQUEST_ID

    # Once the worker has set up logging (Django's settings, applied again, reset this one).
    caplog.set_level(logging.INFO, logger="threethirteen")
    caplog.set_level(logging.INFO, logger="celery.worker.strategy")
    token = REQUEST_ID.set("queued-by-request-0001")
    try:
        queued = tasks.heartbeat.delay("traced")
    finally:
        REQUEST_ID.reset(token)
    assert wait_for(lambda: Heartbeat.objects.filter(name="traced").exists())

    def ids(logger):
        said = [r for r in caplog.records if r.name == logger]
        return [
            r.request_id for r in said if queued.id in r.getMessage() + getattr(r, "task_id", "")
        ]

    assert wait_for(lambda: ids("threethirteen.task"))  # the task's own line, once it returns
    assert ids("threethirteen.task") == ["queued-by-request-0001"]
    assert ids("celery.worker.strategy") == ["queued-by-request-0001"]
    # Queued outside a request (as beat queues): one new id, on both lines.
    queued = tasks.heartbeat.delay("traced")
    assert wait_for(lambda: ids("threethirteen.task"))
    assert ids("celery.worker.strategy") == ids("threethirteen.task") != [""]


def test_a_reminder_is_sent_exactly_once_though_the_sweep_runs_twice(worker):
    alice, bob = UserFactory(), UserFactory()
    game = started_game([alice, bob], time_per_move_days=1)
    assert worker_has_drained()
    mail.outbox.clear()
    # Thirteen hours into a one-day turn: past the 50 % reminder.
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=game.turn_started_at - timedelta(hours=13),
        deadline=game.deadline - timedelta(hours=13),
    )
    tasks.deadlines_sweep.delay()
    tasks.deadlines_sweep.delay()
    assert worker_has_drained()  # both sweeps have run …
    assert worker_has_drained()  # … and the mail either queued
    reminders = [m for m in mail.outbox if "left for your move" in m.subject]
    assert len(reminders) == 1
    to_move = fresh(game).seats.get(index=game.to_move_seat).user
    assert reminders[0].to == [to_move.email]
    row = Notification.objects.get(kind="reminder")
    assert (row.threshold, row.status) == (50, "sent")


# -- a worker killed mid-task ----------------------------------------------------------------

# The worker process: a bot's move pauses after it is written and before it commits (a test-only
# slow hook, installed here, not in the app), so that it can be killed there.
WORKER = """
import os, sys, time
import django
django.setup()
from config.celery import app
from games import services
pause = float(os.environ.get("PAUSE_BEFORE_COMMIT", "0"))
if pause:
    after_commit = services.game_queue_next
    def slow(*, game):
        print("MID-TASK", game.version, flush=True)
        time.sleep(pause)
        after_commit(game=game)
    services.game_queue_next = slow
# The namespaced key: it is the one the app reads (a plain broker_transport_options is shadowed).
# Unacknowledged tasks past their timeout are looked for every second. Kombu's own period is
# about 100 s after the scan at start (kombu.transport.redis, unacked_restore_*), so a start
# scan that finds nothing (its lock held, or the task not yet past its timeout) would leave the
# task beyond this test's minute.
app.conf["CELERY_BROKER_TRANSPORT_OPTIONS"] = {
    "visibility_timeout": float(os.environ["VISIBILITY_TIMEOUT"]),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
app.worker_main(["worker", "--pool", "solo", "--loglevel", "WARNING",
                 "--without-mingle", "--without-gossip", "--without-heartbeat"])
"""


class WorkerProcess:
    def __init__(self, *, pause: float, visibility_timeout: float):
        url = urlsplit(os.environ["DATABASE_URL"])
        test_db = url._replace(path="/" + connection.settings_dict["NAME"])
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": urlunsplit(test_db),  # pytest-django's test_<name> database
            "PAUSE_BEFORE_COMMIT": str(pause),
            "VISIBILITY_TIMEOUT": str(visibility_timeout),
            "BOT_MOVE_DELAY_SECONDS": "0",
        }
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def said(self, word: str) -> bool:
        return any(word in line for line in self.lines)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def lockable(game) -> bool:
    """No other session holds the game's row (PostgreSQL ends a session whose client died and
    rolls its transaction back)."""
    try:
        with transaction.atomic():
            Game.objects.select_for_update(nowait=True).get(pk=game.pk)
        return True
    except OperationalError:
        return False


def held_bot_moves() -> list[str]:
    """The bot moves a worker holds unacknowledged (kombu keeps them in the broker's Redis),
    by their arguments."""
    unacked = redis.Redis.from_url(os.environ["REDIS_URL"]).hvals("unacked")
    held = [json.loads(raw)[0]["headers"] for raw in unacked]
    return [h["argsrepr"] for h in held if h["task"] == "games.tasks.bot_move"]


@pytest.fixture
def workers():
    started: list[WorkerProcess] = []

    def start(**options) -> WorkerProcess:
        started.append(WorkerProcess(**options))
        return started[-1]

    clear_broker()
    yield start
    for process in started:
        process.stop()
    clear_broker()


def test_a_worker_killed_mid_move_and_restarted_loses_and_doubles_no_move(workers):
    human = UserFactory()
    game = started_game([human], seat_count=2, bots="easy")
    human_seat = game.seats.get(user=human).index
    if game.to_move_seat == human_seat:
        from tests.factories import play_one

        play_one(game, {human_seat: human})
        play_one(game, {human_seat: human})
    before = fresh(game).version
    assert game.to_move_seat != human_seat  # the bot's move is queued in Redis

    slow = workers(pause=60, visibility_timeout=3600)
    assert wait_for(lambda: slow.said("MID-TASK"), timeout=60), "".join(slow.lines)
    assert fresh(game).version == before  # written, not committed
    slow.kill()
    assert wait_for(lambda: lockable(game)), "the killed worker's transaction still holds the game"
    assert fresh(game).version == before  # the killed transaction left nothing behind
    # Not acknowledged: the broker still holds the task (beside any mail the worker had reserved).
    assert held_bot_moves() == [repr((game.pk, before))]

    # A new worker takes the unacknowledged task back (its visibility timeout has passed).
    again = workers(pause=0, visibility_timeout=1)
    taken_back = wait_for(lambda: fresh(game).to_move_seat == human_seat, timeout=60)
    assert taken_back, "".join(again.lines) + repr(held_bot_moves())
    # Every task settled, the one taken back included, before counting: a double would show now.
    assert wait_for(lambda: not held_bot_moves(), timeout=60)
    assert worker_has_drained()
    game = fresh(game)
    bot_moves = Move.objects.filter(game=game, seq__gte=before)
    assert bot_moves.first().action["type"] == "draw"
    assert game.version - before == 2 and all(m.by_bot for m in bot_moves)
    assert_log_is_whole(game)


def test_a_your_turn_mail_waits_while_the_player_watches_and_goes_out_once_they_leave(
    worker, client, settings, monkeypatch
):
    """Against a bot, the player's turn comes back within seconds, while their tab is still open:
    the mail waits for them to leave rather than being dropped."""
    from django.db import connections
    from django.test import Client

    settings.PRESENCE_SECONDS = 2
    monkeypatch.setattr(presence, "PRESENCE_TOUCH_SECONDS", 0)
    human = UserFactory()
    client.force_login(human)
    game = started_game([human], seat_count=2, bots="easy")
    human_seat = game.seats.get(user=human).index
    assert wait_for(lambda: fresh(game).to_move_seat == human_seat)
    assert worker_has_drained()
    mail.outbox.clear()

    tab_open = threading.Event()
    tab_open.set()

    def open_tab():  # the table polls while it is visible, as the page's script does
        tab = Client()
        tab.force_login(human)
        poll = reverse("game_table", kwargs={"game_id": game.pk})
        while tab_open.is_set():
            tab.get(f"{poll}?v=0")
            time.sleep(0.2)
        connections.close_all()

    polling = threading.Thread(target=open_tab)
    polling.start()
    try:
        assert wait_for(lambda: Game.objects.get(pk=game.pk).seats.get(user=human).last_seen_at)
        play_human_turn(client, game)
        assert wait_for(lambda: fresh(game).to_move_seat == human_seat, timeout=20)

        def checked_while_watching():
            row = Notification.objects.filter(
                user=human, kind="your_turn", turn=game.turn_version
            ).first()
            return row is not None and (row.reason == "watching" or row.status != "pending")

        assert wait_for(checked_while_watching, timeout=20)
        assert not mail.outbox, "no mail while the player is looking"
    finally:
        tab_open.clear()  # the player closes the tab
        polling.join(timeout=10)
    # The mail goes out once the presence window has passed.
    assert wait_for(lambda: mail.outbox, timeout=20)
    [message] = mail.outbox
    assert message.to == [human.email] and message.subject == f"Your turn in game #{game.pk}"
    # The mail is handed over inside the task's transaction, before its row is marked sent.
    sent = Notification.objects.filter(
        user=human, kind="your_turn", turn=fresh(game).turn_version, status="sent"
    )
    assert wait_for(sent.exists)
