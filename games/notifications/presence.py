"""Presence at the table: when a player last had a table open and visible, and whether they are
looking at it now (a 'your turn' mail waits while they are)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from ..asynchronous_commit import asynchronous_commit
from ..models import Seat

# Presence is written at most this often per seat (the table polls every 5 s while visible).
PRESENCE_TOUCH_SECONDS = 10


def presence_due(seat: Seat, now: datetime) -> bool:
    """Whether the seat's presence is to be written again (one write per 10 s at most)."""
    return not (
        seat.last_seen_at and seat.last_seen_at > now - timedelta(seconds=PRESENCE_TOUCH_SECONDS)
    )


def seat_record_presence(*, seat: Seat, now: datetime | None = None) -> None:
    """The player has this table open and visible (a write that need not wait for the disk)."""
    now = now or timezone.now()
    if not presence_due(seat, now):
        return
    with asynchronous_commit():
        Seat.objects.filter(pk=seat.pk).update(last_seen_at=now)
    seat.last_seen_at = now


def is_watching(seat: Seat, now: datetime) -> bool:
    window = timedelta(seconds=settings.PRESENCE_SECONDS)
    return seat.last_seen_at is not None and seat.last_seen_at >= now - window
