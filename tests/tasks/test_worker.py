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


def test_a_worker_that_starts_proves_itself_at_once_without_waiting_for_beat(worker):
    """No beat runs here: the heartbeat can only come from the worker's own start, so /healthz
    is green seconds after a (re)start rather than at beat's next tick, 30 s later."""
    assert wait_for(lambda: Heartbeat.objects.filter(name="worker").exists(), timeout=10)
