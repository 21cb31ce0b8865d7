"""The one place that queues background work. Tasks are named ("games.tasks.bot_move"), not
imported, so a module that queues work never imports the tasks module (which imports the
services): no circle. Work caused by a write is queued after the transaction commits, so that no
task sees uncommitted data, and robustly, so that a broker that is down never turns a saved move
into an error (the sweep queues lost work again, through `enqueue_now`: deadlines/sweep.py's
stalled bots, and notifications/outbox.py's notifications_requeue_stale)."""

from __future__ import annotations

import logging

from django.db import transaction

from config.celery import app

logger = logging.getLogger(__name__)


def enqueue_now(task_name: str, args: tuple, **options) -> None:
    """Send the task named `task_name` with `args` to the broker at once (for the sweep, which
    queues work no transaction of its own caused); a broker error propagates."""
    app.signature(task_name, args=args).apply_async(**options)


def enqueue_on_commit(task_name: str, args: tuple, *, countdown: float | None = None) -> None:
    """Send the task named `task_name` with `args` once the current transaction has committed."""

    def publish():
        try:
            enqueue_now(task_name, args, countdown=countdown or None)
        except Exception:  # the broker is down or refusing: the move stands, the sweep retries
            logger.warning("Could not queue %s%r; the sweep will queue it again", task_name, args)

    transaction.on_commit(publish)
