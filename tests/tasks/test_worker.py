"""A real Celery worker on Redis, writing to PostgreSQL."""

import pytest

from config.celery import app as celery_app
from games import tasks
from games.models import Heartbeat
from tests.workers import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_task_sent_through_redis_runs_in_the_worker_and_writes_to_the_database(worker):
    from django.db import connection

    assert connection.vendor == "postgresql"
    assert celery_app.conf.broker_url.startswith("redis")
    tasks.heartbeat.delay("ci-worker")
    assert wait_for(lambda: Heartbeat.objects.filter(name="ci-worker").exists())


def test_the_worker_counts_its_tasks_by_name_and_outcome_and_times_them(worker):
    """/metrics' task figures (games/metrics.py), as the worker (here a thread of this process)
    counts them."""
    from prometheus_client import REGISTRY

    labels = {"task": "games.tasks.heartbeat", "outcome": "succeeded"}
    before = REGISTRY.get_sample_value("tt_tasks_total", labels) or 0
    tasks.heartbeat.delay("counted")
    assert wait_for(lambda: (REGISTRY.get_sample_value("tt_tasks_total", labels) or 0) > before)
    timed = {"task": "games.tasks.heartbeat"}
    assert REGISTRY.get_sample_value("tt_task_seconds_count", timed) >= 1


def test_a_worker_that_starts_proves_itself_at_once_without_waiting_for_beat(worker):
    """No beat runs here: the heartbeat can only come from the worker's own start, so /healthz
    is green seconds after a (re)start rather than at beat's next tick, 30 s later."""
    assert wait_for(lambda: Heartbeat.objects.filter(name="worker").exists(), timeout=10)


def test_a_pile_of_bot_turns_does_not_hold_back_the_mail_and_the_sweeps(settings):
    """Bot turns have a queue of their own, which a worker takes in turn with the others: a task
    queued behind 100 bot turns runs long before the last of them, not after."""
    import os

    import redis
    from celery.contrib.testing.worker import start_worker

    from tests.workers import clear_broker

    clear_broker()
    for _ in range(100):  # turns of a game that is gone: each a quick no-op in the worker
        tasks.bot_move.delay(10**9, 1)
    tasks.heartbeat.delay("behind-the-bots")
    broker = redis.Redis.from_url(os.environ["REDIS_URL"])
    waiting = lambda: sum(broker.llen(q) for q in ("bots", "celery"))  # noqa: E731
    assert waiting() == 101
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        assert wait_for(lambda: Heartbeat.objects.filter(name="behind-the-bots").exists())
        left = waiting()
    clear_broker()
    assert left > 50, f"the heartbeat waited for {100 - left} bot turns"
