"""The one place that queues background work: after the transaction commits, so that no task sees
uncommitted data, and robustly, so that a broker that is down never turns a saved move into an
error (the sweep queues lost work again: deadlines._requeue_stalled_bots, and the outbox's
notifications_requeue_stale)."""

from __future__ import annotations

import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue_on_commit(task, args: tuple, *, countdown: float | None = None) -> None:
    """Send `task(*args)` to the broker once the current transaction has committed."""

    def publish():
        try:
            task.apply_async(args, countdown=countdown or None)
        except Exception:  # the broker is down or refusing: the move stands, the sweep retries
            logger.warning("Could not queue %s%r; the sweep will queue it again", task.name, args)

    transaction.on_commit(publish)
