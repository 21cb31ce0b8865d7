"""Faults the worker must live through: Redis restarted while the worker holds unacknowledged
tasks (tasks waiting for their countdown, a task running). A private redis-server on a free port
is restarted here, so that nothing else using Redis is disturbed."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from celery import Celery
from redis import Redis

from tests.private_servers import PrivateRedis
from tests.workers import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def redis_and_worker():
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed (apt-get install redis-server)")
    redis = PrivateRedis()
    redis.start()
    url = f"redis://127.0.0.1:{redis.port}/0"
    env = {**os.environ, "REDIS_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    log = Path(redis.folder) / "worker.log"
    with log.open("w") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "INFO",
             "--concurrency", "1", "--hostname", f"fault-{redis.port}@%h"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        yield redis, worker, url, log
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
        redis.close()


LOST = "Connection to broker lost"  # what the worker logs when it notices Redis has gone


def held(url: str) -> int:
    """How many tasks the worker holds unacknowledged (kombu keeps them in Redis)."""
    return Redis.from_url(url).hlen("unacked")


def answers_ping(url: str) -> bool:
    """The worker answers a ping through the broker (a fresh client: the old one's connections
    died with Redis)."""
    client = Celery("fault-ping", broker=url)
    try:
        return bool(client.control.ping(timeout=1.0, limit=1))
    except Exception:  # Redis not back yet
        return False
    finally:
        client.close()


def test_the_worker_lives_through_redis_restarts_while_holding_unacknowledged_tasks(
    redis_and_worker,
):
    redis, worker, url, log = redis_and_worker
    assert wait_for(lambda: answers_ping(url), 30), log.read_text()
    for restart in range(3):
        with Celery("fault-client", broker=url) as client:
            for _ in range(3):  # held by the worker, unacknowledged, until their countdown ends
                client.send_task("games.tasks.heartbeat", args=["fault"], countdown=600)
        assert wait_for(lambda: held(url) >= 3, 30), log.read_text()
        losses = log.read_text().count(LOST)
        redis.stop()
        assert wait_for(lambda n=losses: log.read_text().count(LOST) > n, 30), log.read_text()
        redis.start()
        alive = wait_for(lambda: answers_ping(url), 30)
        assert worker.poll() is None and alive, f"restart {restart + 1}:\n{log.read_text()}"
    assert "Unrecoverable error" not in log.read_text()
