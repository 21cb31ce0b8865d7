"""A real Celery worker on Redis for tests (the `worker` fixture in tests/conftest.py) and waiting
for what it does."""

import contextlib
import os
import socket
import subprocess
import time

from games import tasks
from games.models import Heartbeat


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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_taken(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def site_process(argv, **env):
    """A process of the site (`argv(port)`: its command for a free port) on this test's
    database and Redis database, `env` added; yields the port once it listens, stopped after."""
    from django.conf import settings
    from django.db import connection

    port = free_port()
    database = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
        f"{database['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        **env,
    }
    process = subprocess.Popen(argv(port), env=env)
    try:
        assert wait_for(lambda: port_taken(port), timeout=30)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # a server still waiting on an open stream
            process.kill()
            process.wait(timeout=10)


def worker_has_drained():
    """Wait until the worker has run everything queued before now (the solo pool runs tasks in
    order): a heartbeat sent now comes out last."""
    name = f"drained-{time.monotonic_ns()}"
    tasks.heartbeat.delay(name)
    return wait_for(lambda: Heartbeat.objects.filter(name=name).exists())
