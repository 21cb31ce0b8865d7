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

from tests.faults.site import (
    Scene,
    Site,
    audit,
    bot_turn_pending,
    bounded_wait,
    queue_of,
    recovery,
)

pytestmark = pytest.mark.faults
RUNS = range(1, int(os.environ.get("FAULT_RUNS", "1")) + 1)
OUTAGE_SECONDS = 5


@pytest.fixture
def scene(site: Site) -> Scene:
    assert bounded_wait(site.healthy, 120, interval=0.5)[0], site.logs()
    return site.scene()


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
    bot_queue = queue_of("games.tasks.bot_move")
    assert site.redis_client().delete(bot_queue) == 1, f"no task was waiting in {bot_queue!r}"
    site.shift_clock(timedelta(hours=1))
    site.worker.start()
    site.beat.start()
    figures(**recovery(site, scene, bot_version))
    audit(site, scene)
