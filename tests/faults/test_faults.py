"""Faults during play, on the whole site (gunicorn, a Celery worker, beat) over private PostgreSQL
and Redis: each scenario plays two games (people, and a person against a bot) over HTTP, breaks
one part, repairs it, and measures the seconds until /healthz answers 200, a person's move
succeeds, the bot's pending turn is played and every due mail is sent. Then it audits: no move
lost or doubled (every log contiguous and rebuilding its game's state, every accepted move in
it, no refused one), every bot turn played once, every mail sent exactly once.

`make faulttest` runs them (marker `faults`, not part of `make test`: several minutes, since a
lost task is found by the sweep, which beat runs every 30 s). FAULT_RUNS=n repeats each."""

import os
import time
from datetime import timedelta

import pytest

from games.engine import GameState, action_from_dict
from tests.faults.site import Scene, Site, bounded_wait

pytestmark = pytest.mark.faults
RUNS = range(1, int(os.environ.get("FAULT_RUNS", "1")) + 1)
OUTAGE_SECONDS = 5
# Longest any part may take to recover: a lost task waits for the sweep (beat, every 30 s) to
# find it stalled (30 s) or overdue (mail, 1 min).
RECOVERY_LIMIT = 150


@pytest.fixture
def scene(site: Site) -> Scene:
    assert bounded_wait(site.healthy, 120, interval=0.5)[0], site.logs()
    return site.scene()


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


def recovery(site: Site, scene: Scene, bot_version: int) -> dict:
    """Seconds, from now (the repair), until each part works again, each watched on its own:
    /healthz answers 200, a person's move succeeds, the bot's pending turn has been played (both
    its actions), and no mail is left to send."""
    start = time.monotonic()
    checks = {
        "healthz": site.healthy,
        "person_move": lambda: site.try_move(scene, scene.people),
        "bot_move": lambda: site.bot_turn_over(scene, scene.bots, bot_version),
        "mail": lambda: site.mail_rows().get("pending", 0) == 0,
    }
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


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("mode", ["fast", "immediate"])  # a clean shutdown, a crash
def test_postgres_restarted_during_play(site, scene, figures, mode, run):
    assert site.move(scene, scene.people) == 302
    bot_version = bot_turn_pending(site, scene)
    waiting = site.next_move(scene, scene.people)
    site.postgres.stop(mode)  # the bot's task (due in half a second) meets no database
    try:
        assert site.post_move(scene, scene.people, *waiting) == 503
        health = site.get("/healthz")
        assert health.status_code == 503 and health.json()["database"]["ok"] is False
        player = {"sessionid": scene.seats[scene.people][0]}
        for path in ("/", f"/games/{scene.people}/", "/lobby/"):
            page = site.get(path, cookies=player)
            assert page.status_code == 503, (path, page.status_code, page.text[:500])
            assert "Back in a moment" in page.text and page.headers["Retry-After"]
        time.sleep(OUTAGE_SECONDS)
    finally:
        site.postgres.start()
    figures(**recovery(site, scene, bot_version))
    audit(site, scene)


@pytest.mark.parametrize("run", RUNS)
def test_redis_restarted_during_play(site, scene, figures, run):
    assert site.move(scene, scene.people) == 302
    bot_version = bot_turn_pending(site, scene)
    site.redis.stop()  # the bot's task, held by the worker until its countdown ends, is lost
    try:
        health = site.get("/healthz")
        assert health.status_code == 503 and health.json()["broker"]["ok"] is False
        player = {"sessionid": scene.seats[scene.people][0]}
        for path in ("/", f"/games/{scene.people}/"):  # sessions are in the database too
            page = site.get(path, cookies=player)
            assert page.status_code == 200, (path, page.status_code, page.text[:500])
        assert site.move(scene, scene.people) == 302  # the move stands; its mail is queued later
        time.sleep(OUTAGE_SECONDS)
    finally:
        site.redis.start()
    figures(**recovery(site, scene, bot_version))
    audit(site, scene)


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("killed", ["worker", "pool"])
def test_worker_killed_mid_task(site, scene, figures, killed, run):
    """SIGKILL while the bot's task runs: to the whole worker (the machine's kill, a lost host),
    or to its pool processes (the OOM killer's choice), whose worker puts the task back. The
    task is held midway, after choosing its move and before writing it, by a lock on the game
    that this test takes as soon as the bot's turn begins (a bot decides in milliseconds)."""
    assert site.move(scene, scene.people) == 302
    started = site.worker.log.read_text().count("games.tasks.bot_move[")
    bot_version = bot_turn_pending(site, scene)
    with site.game_locked(scene.bots):

        def bot_task_taken():
            return site.worker.log.read_text().count("games.tasks.bot_move[") > started

        assert bounded_wait(bot_task_taken, 20)[0], site.logs()
        time.sleep(1.5)  # past its half-second countdown: the task waits for the lock
        assert site.version(scene.bots) == bot_version, "the bot moved before the kill"
        if killed == "worker":
            site.worker.kill()
        else:
            assert site.kill_pool() > 0
    if killed == "worker":
        site.worker.start()
    figures(**recovery(site, scene, bot_version))
    audit(site, scene)


@pytest.mark.parametrize("run", RUNS)
def test_beat_down_for_an_hour(site, scene, figures, run):
    """Beat stops; meanwhile tasks are lost (a broker that lost its queue: the worker stopped,
    the queue emptied). An hour passes (every timestamp in the database and beat's schedule
    moved an hour back); beat starts again and catches up by itself."""
    assert bounded_wait(lambda: site.person_to_move(scene, scene.bots), 30)[0], site.logs()
    site.beat.stop()
    site.worker.stop()
    assert site.move(scene, scene.people) == 302
    bot_version = bot_turn_pending(site, scene)
    assert site.redis_client().delete("celery") == 1, "no task was waiting in the queue"
    site.shift_clock(timedelta(hours=1))
    site.worker.start()
    site.beat.start()
    figures(**recovery(site, scene, bot_version))
    audit(site, scene)
