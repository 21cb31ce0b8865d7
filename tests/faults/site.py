"""The whole site on private servers, for the fault runs: PostgreSQL (55432) and Redis (56379) of
its own, gunicorn, a Celery worker and beat, all as separate processes with the production
settings (tests/faults/settings.py); players who move over HTTP as a browser would; and the audit
of what the database holds afterwards."""

from __future__ import annotations

import email
import json
import os
import random
import secrets
import shelve
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import psycopg
import redis
import requests
from psycopg import sql

from games.engine import GameState, Rules, action_from_dict
from games.engine.bots import Bot
from loadtest.processes import AppProcess
from tests.private_servers import PrivatePostgres, PrivateRedis, port_taken

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_PORT = 55432
REDIS_PORT = 56379
WEB_PORTS = range(8300, 8350)
CELERY = [sys.executable, "-m", "celery", "-A", "config"]
MOVE_PATHS = {"draw": "draw", "discard": "discard", "go_out": "go-out"}


def queue_of(task_name: str) -> str:
    """The queue the site's Celery app routes `task_name` to (CELERY_TASK_ROUTES): a scenario
    that empties a queue names it through this, so that a queue renamed in the settings cannot
    leave the scenario emptying one that holds nothing."""
    from config.celery import app  # the settings are loaded once pytest-django has started

    return app.amqp.router.route({}, task_name)["queue"].name


def bounded_wait(predicate, timeout: float, interval: float = 0.2):
    """Call `predicate` until it answers something true, for at most `timeout` seconds; returns
    (the answer, seconds taken), or (None, seconds) when time ran out."""
    start = time.monotonic()
    while True:
        answer = predicate()
        elapsed = time.monotonic() - start
        if answer or elapsed > timeout:
            return (answer or None), elapsed
        time.sleep(interval)


@contextmanager
def started(make, prefix: str):
    """A site made by `make(folder)` in a new temporary folder, started, and always stopped and
    removed afterwards, even when the run is stopped by SIGTERM (a timeout, CI cancelling): as
    for Ctrl-C."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    site = make(folder)
    previous = signal.signal(signal.SIGTERM, _stop_as_if_interrupted)
    try:
        site.start()
        yield site
    finally:
        try:
            site.close()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
            signal.signal(signal.SIGTERM, previous)


def _stop_as_if_interrupted(signum, frame):
    raise KeyboardInterrupt


@dataclass
class Attempt:
    """One move a player sent, and what the site answered (None: no answer at all)."""

    game: int
    version: int
    action: dict
    status: int | None


@dataclass
class Scene:
    """Two games made for a scenario: `people` (two players) and `bots` (a player and a bot);
    `seats` maps each game to its seats' session keys (None for the bot)."""

    people: int
    bots: int
    seats: dict[int, dict[int, str | None]]
    attempts: list[Attempt] = field(default_factory=list)


class Site:
    """The site on private servers: one gunicorn, a worker and beat (tests/nodes/cluster.py
    puts two nodes behind nginx instead, by `front_port` and `make_processes`)."""

    def __init__(self, folder: Path, *, postgres_port: int = POSTGRES_PORT,
                 redis_port: int = REDIS_PORT):  # fmt: skip
        self.folder = folder
        self.postgres = PrivatePostgres(postgres_port)
        self.redis = PrivateRedis(redis_port)
        self.port = next(p for p in WEB_PORTS if not port_taken(p))
        self.base = f"http://127.0.0.1:{self.front_port()}"
        self.database_url = self.postgres.url("faults")
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.faults.settings",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis.url,
            "VAR_DIR": str(folder),
            "SITE_URL": self.base,
            "ALLOWED_HOSTS": "127.0.0.1",
            "PYTHONPATH": str(ROOT),
            "BOT_MOVE_DELAY_SECONDS": "0.5",
            "YOUR_TURN_MAIL_DELAY_SECONDS": "1",
            "PYTHONWARNINGS": "ignore:You're running the worker with superuser",
        }
        self.processes = self.make_processes()

    def front_port(self) -> int:
        """The port the players' requests go to."""
        return self.port

    def make_processes(self) -> list[AppProcess]:
        self.web = self.process("web", self.gunicorn(self.port))
        self.worker = self.process("worker", self.celery_worker("faults"))
        self.beat = self.process("beat", self.celery_beat())
        return [self.web, self.worker, self.beat]

    def gunicorn(self, port: int) -> list[str]:
        return [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", "2",
                "--bind", f"127.0.0.1:{port}", "--timeout", "30"]  # fmt: skip

    def celery_beat(self) -> list[str]:
        return [*CELERY, "beat", "-l", "INFO", "-s", str(self.schedule_file)]

    def celery_worker(self, name: str, concurrency: int = 2) -> list[str]:
        return [*CELERY, "worker", "-l", "INFO", "--concurrency", str(concurrency),
                "--hostname", f"{name}-{self.port}@%h"]  # fmt: skip

    @property
    def schedule_file(self) -> Path:
        return self.folder / "celerybeat-schedule"

    def process(self, name: str, argv: list[str]) -> AppProcess:
        return AppProcess(name, argv, env=self.env, cwd=ROOT, log_dir=self.folder)

    # Starting and stopping

    def start(self) -> None:
        self.postgres.create()
        self.postgres.start()
        self.postgres.run(str(self.postgres.bin / "createdb"), "-h", "127.0.0.1",
                          "-p", str(self.postgres.port), "-U", "postgres", "faults")  # fmt: skip
        self.redis.start()
        for command in (["migrate", "--noinput"], ["ensure_bots"]):
            self.manage(*command)
        for process in self.processes:
            process.start()

    def manage(self, *argv: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *argv], cwd=ROOT, env=self.env, capture_output=True,
            text=True, timeout=300,
        )  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(argv)} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def close(self) -> None:
        for process in self.processes:
            process.close()
        try:
            self.postgres.close()
        finally:
            self.redis.close()

    def describe(self, scene: Scene) -> str:
        """The scene's games as the database has them, and the moves sent: for a failure."""
        games = self.query(
            "SELECT id, status, version, to_move_seat, turn_started_at FROM games_game "
            "WHERE id IN (%s, %s)",
            (scene.people, scene.bots),
        )
        return f"games {games}\nseats {scene.seats}\nattempts {scene.attempts}"

    def logs(self) -> str:
        return "\n".join(f"--- {p.name} ---\n{p.tail()}" for p in self.processes)

    # Reading the site

    def get(self, path: str, **kwargs) -> requests.Response | None:
        try:
            return requests.get(self.base + path, timeout=5, allow_redirects=False, **kwargs)
        except requests.RequestException:
            return None

    def healthy(self) -> bool:
        response = self.get("/healthz")
        return response is not None and response.status_code == 200

    def query(self, statement: str, params: tuple = ()) -> list[tuple]:
        """A fresh connection each time: the server may have restarted since the last."""
        with psycopg.connect(self.database_url, connect_timeout=3) as conn:
            return conn.execute(statement, params).fetchall()

    @contextmanager
    def game_locked(self, game_id: int):
        """Hold the game's row lock, as a move does, from a connection of our own: a task that
        moves in the game waits for it midway (having loaded the game and chosen its move)."""
        with psycopg.connect(self.database_url, connect_timeout=3) as conn:
            conn.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", (game_id,))
            yield
            conn.rollback()

    def scene(self, bot_kind: str = "easy") -> Scene:
        done = subprocess.run(
            [sys.executable, "-m", "tests.faults.scene", bot_kind], cwd=ROOT, env=self.env,
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"making the scene failed:\n{done.stderr[-3000:]}")
        made = json.loads(done.stdout)
        seats = {
            int(game): {int(index): key for index, key in by_seat.items()}
            for game, by_seat in made["games"].items()
        }
        return Scene(people=made["people"], bots=made["bots"], seats=seats)

    def game(self, game_id: int) -> tuple[dict, int, int | None]:
        """(state, version, seat to move) of a game."""
        ((state, version, to_move),) = self.query(
            "SELECT state, version, to_move_seat FROM games_game WHERE id = %s", (game_id,)
        )
        return state, version, to_move

    # Playing

    def move(self, scene: Scene, game_id: int) -> int | None:
        """The player to move (a person) plays a draw or a discard over HTTP, as the browser
        without JavaScript does; returns the status code (None: no answer), recorded in the
        scene's attempts. Raises if the database cannot be read or a bot is to move."""
        return self.post_move(scene, game_id, *self.next_move(scene, game_id))

    def next_move(
        self, scene: Scene, game_id: int, bot: Bot | None = None
    ) -> tuple[int, dict, str]:
        """(version, action, session key) of the person to move's next move: the first draw or
        discard, or what `bot` would play in their seat (to play a game to its end)."""
        state, version, to_move = self.game(game_id)
        session = scene.seats[game_id][to_move]
        if session is None:
            raise AssertionError(f"game {game_id}: the bot is to move, not a person")
        game = GameState.from_dict(state)
        if bot is not None:
            chosen = bot.choose(game.view(to_move), random.Random(version))
            return version, chosen.to_dict(), session
        actions = [a.to_dict() for a in game.legal_actions()]
        action = next((a for a in actions if a["type"] in ("draw", "discard")), actions[0])
        return version, action, session

    def post_move(self, scene: Scene, game_id: int, version: int, action: dict, session: str):
        token = secrets.token_hex(16)  # the double-submit cookie: any secret the page would set
        data = {"version": version}
        if action["type"] == "draw":
            data["source"] = action["source"]
        else:
            data["card"] = action["card"]
        try:
            response = requests.post(
                f"{self.base}/games/{game_id}/{MOVE_PATHS[action['type']]}/",
                data=data,
                cookies={"sessionid": session, "csrftoken": token},
                headers={"X-CSRFToken": token},
                timeout=10,
                allow_redirects=False,
            )
            status = response.status_code
        except requests.RequestException:
            response, status = None, None
        self.last_response = response
        scene.attempts.append(Attempt(game_id, version, action, status))
        return status

    def try_move(self, scene: Scene, game_id: int) -> bool:
        """Whether a move by the person to move succeeded (False while the database is down)."""
        try:
            return self.move(scene, game_id) == 302
        except psycopg.OperationalError:
            return False

    def person_to_move(self, scene: Scene, game_id: int) -> bool:
        try:
            _, _, to_move = self.game(game_id)
        except psycopg.OperationalError:
            return False
        return scene.seats[game_id].get(to_move) is not None

    def bot_turn_over(self, scene: Scene, game_id: int, began: int) -> bool:
        """The bot's turn that began at version `began` has been played: a person is to move."""
        version = self.version(game_id)
        return version is not None and version > began and self.person_to_move(scene, game_id)

    def version(self, game_id: int) -> int | None:
        try:
            return self.game(game_id)[1]
        except psycopg.OperationalError:
            return None

    def kill_pool(self) -> int:
        """SIGKILL to the worker's pool processes (not the worker itself, which starts new
        ones): as the kernel's OOM killer would. Returns how many were killed."""
        listed = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(self.worker.process.pid)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        children = [int(pid) for pid in listed.stdout.split()]
        for pid in children:
            os.kill(pid, signal.SIGKILL)
        return len(children)

    def redis_client(self) -> redis.Redis:
        return redis.Redis.from_url(self.redis.url)

    def shift_clock(self, elapsed: timedelta) -> None:
        """As if `elapsed` had passed while nothing ran: every timestamp in the database, and
        when beat last ran each entry, moved back by it (beat must be stopped)."""
        columns = self.query(
            "SELECT table_name, column_name FROM information_schema.columns WHERE "
            "table_schema = 'public' AND data_type = 'timestamp with time zone' "
            "AND table_name <> 'django_migrations'"
        )
        with psycopg.connect(self.database_url) as conn:
            for table, column in columns:
                conn.execute(
                    sql.SQL("UPDATE {t} SET {c} = {c} - %s").format(
                        t=sql.Identifier(table), c=sql.Identifier(column)
                    ),
                    (elapsed,),
                )
        with shelve.open(str(self.schedule_file)) as schedule:
            entries = schedule["entries"]
            for entry in entries.values():
                entry.last_run_at -= elapsed
            schedule["entries"] = entries

    # Auditing

    def audit_moves(self, scene: Scene) -> list[str]:
        """What is wrong with the games' logs: a gap or a double in a move log, a state that its
        log does not rebuild, a move the site accepted that is missing, a person's move recorded
        that the site refused, a bot's move in a person's seat or the other way round."""
        problems = []
        for game_id in (scene.people, scene.bots):
            ((rules, seats, seed, state, version),) = self.query(
                "SELECT rules, seat_count, seed, state, version FROM games_game WHERE id = %s",
                (game_id,),
            )
            log = self.query(
                "SELECT seq, seat, action, by_bot FROM games_move WHERE game_id = %s ORDER BY seq",
                (game_id,),
            )
            if [row[0] for row in log] != list(range(version)):
                problems.append(f"game {game_id}: moves {[r[0] for r in log]}, version {version}")
            replayed = GameState.replay(
                Rules.from_dict(rules), seats, seed, (action_from_dict(r[2]) for r in log)
            )
            if replayed.to_dict() != state:
                problems.append(f"game {game_id}: the move log does not rebuild the state")
            for seq, seat, _action, by_bot in log:
                if by_bot != (scene.seats[game_id][seat] is None):
                    problems.append(f"game {game_id} move {seq}: by_bot={by_bot} in seat {seat}")
            recorded = {seq: action for seq, _, action, _ in log}
            for attempt in scene.attempts:
                if attempt.game != game_id:
                    continue
                stored = recorded.get(attempt.version)
                if attempt.status == 302 and stored != attempt.action:
                    problems.append(f"game {game_id}: accepted move {attempt} is not in the log")
                if (
                    attempt.status is not None
                    and attempt.status >= 400
                    and stored == attempt.action
                ):
                    ours = [
                        a
                        for a in scene.attempts
                        if a.game == game_id and a.version == attempt.version
                    ]
                    if not any(a.status == 302 for a in ours):
                        problems.append(f"game {game_id}: refused move {attempt} was recorded")
        return problems

    def no_mail_pending(self) -> bool:
        return self.mail_rows().get("pending", 0) == 0

    def mail_rows(self) -> dict[str, int]:
        rows = self.query(
            "SELECT status, count(*) FROM games_notification WHERE channel = 'mail' GROUP BY status"
        )
        return dict(rows)

    def mails_written(self) -> list[tuple[str, str]]:
        """(recipient, subject) of every message the mail backend wrote: the file backend appends
        each message to its connection's file, separated by a line of dashes."""
        sent = []
        for path in sorted((self.folder / "mail").glob("*.log")):
            for chunk in path.read_text(errors="replace").split("-" * 79):
                if chunk.strip():
                    message = email.message_from_string(chunk.lstrip("\n"))
                    sent.append((message["To"], message["Subject"]))
        return sent

    def audit_mail(self) -> list[str]:
        """Every mail recorded as sent went out exactly once, and none went out unrecorded."""
        rows = self.query(
            "SELECT u.email, count(*) FROM games_notification n JOIN accounts_user u "
            "ON u.id = n.user_id WHERE n.channel = 'mail' AND n.status = 'sent' GROUP BY u.email"
        )
        expected = dict(rows)
        written: dict[str, int] = {}
        for recipient, _ in self.mails_written():
            written[recipient] = written.get(recipient, 0) + 1
        problems = []
        if expected != written:
            problems.append(f"mail recorded as sent {expected}, written {written}")
        if failed := self.mail_rows().get("failed"):
            problems.append(f"{failed} mail marked failed")
        return problems


# The scenarios' steps (tests/faults, tests/nodes)

# Longest any part may take to recover: a lost task waits for the sweep (beat, every 30 s) to
# find it stalled (30 s) or overdue (mail, 1 min).
RECOVERY_LIMIT = 150


def bot_turn_pending(site: Site, scene: Scene) -> int:
    """The person of the bot game moves until a move of theirs hands the turn to the bot (a
    discard, unless it ends the round and the person leads the next); returns the version at
    which the bot's turn began, the version its task names. Whose turn follows is computed by
    the engine, not read afterwards: a bot may have played its turn by then."""
    assert bounded_wait(lambda: site.person_to_move(scene, scene.bots), 30)[0], site.logs()
    for _ in range(6):
        state, _, _ = site.game(scene.bots)
        version, action, session = site.next_move(scene, scene.bots)
        assert site.post_move(scene, scene.bots, version, action, session) == 302
        after = GameState.from_dict(state)
        after.apply(action_from_dict(action))
        if scene.seats[scene.bots][after.to_move] is None:
            return version + 1
        assert bounded_wait(lambda: site.person_to_move(scene, scene.bots), 30)[0], site.logs()
    raise AssertionError(f"the bot never came to move\n{site.describe(scene)}")


def recovery(site: Site, scene: Scene, bot_version: int, *, mail: bool = True) -> dict:
    """Seconds, from now (the repair), until each part works again, each watched on its own:
    /healthz answers 200, a person's move succeeds, the bot's pending turn has been played (both
    its actions), and (unless `mail` is false) no mail is left to send."""
    start = time.monotonic()
    checks = {
        "healthz": site.healthy,
        "person_move": lambda: site.try_move(scene, scene.people),
        "bot_move": lambda: site.bot_turn_over(scene, scene.bots, bot_version),
    }
    if mail:
        checks["mail"] = site.no_mail_pending
    figures = dict.fromkeys(checks)

    def all_recovered():
        for name, check in checks.items():
            if figures[name] is None and check():
                figures[name] = time.monotonic() - start
        return None not in figures.values()

    bounded_wait(all_recovered, RECOVERY_LIMIT, interval=0.25)
    assert None not in figures.values(), (
        f"not recovered: {figures}\n{site.describe(scene)}\n{site.logs()}"
    )
    assert site.try_move(scene, scene.bots), "the bot game does not go on"
    return figures


def audit(site: Site, scene: Scene) -> None:
    problems = site.audit_moves(scene) + site.audit_mail()
    assert not problems, "\n".join(problems)
