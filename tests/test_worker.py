"""A real Celery worker on Redis, writing to PostgreSQL."""

import time

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app as celery_app
from games import tasks
from games.models import Heartbeat

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def celery_worker():
    celery_app.control.purge()
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w


def wait_for(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_a_task_sent_through_redis_runs_in_the_worker_and_writes_to_the_database(celery_worker):
    from django.db import connection

    assert connection.vendor == "postgresql"
    assert celery_app.conf.broker_url.startswith("redis")
    tasks.heartbeat.delay("ci-worker")
    assert wait_for(lambda: Heartbeat.objects.filter(name="ci-worker").exists())
