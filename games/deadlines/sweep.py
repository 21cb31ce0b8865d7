"""The sweep Celery beat runs every 30 s: everything overdue at a moment, idempotent."""

from __future__ import annotations

import logging
from dataclasses import asdict
from datetime import datetime

from django.utils import timezone

from ..notifications.outbox import notifications_requeue_stale
from ..oncommit import enqueue_now
from .due import absent_seat_ids, bot_stall, overdue_game_ids, reminder_game_ids, stalled_bot_games
from .reminders import reminders_queue
from .report import SweepReport
from .timeouts import autopilot_count_timeouts, turn_time_out

logger = logging.getLogger("games.deadlines")


def sweep(*, now: datetime | None = None) -> SweepReport:
    """Handle everything that is overdue at `now`; idempotent."""
    now = now or timezone.now()
    report = SweepReport()
    # First, so that a seat put on autopilot below is not counted as stalled before its bot ran.
    report.bots_requeued = bots_requeue_stalled(now=now)
    for game_id in overdue_game_ids(now):
        turn_time_out(game_id=game_id, now=now, report=report)
    for seat_id in absent_seat_ids(now):
        autopilot_count_timeouts(seat_id=seat_id, now=now, report=report)
    for game_id in reminder_game_ids(now):
        report.reminders += reminders_queue(game_id=game_id, now=now)
    report.mail_requeued = notifications_requeue_stale(now=now)
    if any(asdict(report).values()):
        logger.info("deadlines sweep: %s", report.as_dict())
    return report


def bots_requeue_stalled(*, now: datetime) -> int:
    """A bot's (or autopilot's) turn that has not moved for a while lost its task (a broker
    outage at commit, say): queue it again. bot_move is a no-op if it turns out to be a double."""
    stalled = stalled_bot_games(now)
    expires = bot_stall().total_seconds()
    for game_id, version in stalled:
        enqueue_now("games.tasks.bot_move", (game_id, version), expires=expires)
    return len(stalled)
