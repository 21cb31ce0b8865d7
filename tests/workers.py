"""A real Celery worker on Redis for tests (the `worker` fixture in tests/conftest.py) and waiting
for what it does."""

import os
import time


def wait_for(predicate, timeout=30.0, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


def clear_broker():
    """Nothing left in the queue, nor unacknowledged by a worker killed in an earlier run."""
    import redis

    from config.celery import app as celery_app

    celery_app.control.purge()
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.delete("unacked", "unacked_index", "unacked_mutex")
