"""Presence at the table (games/notifications/presence.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.notifications import presence
from tests.notifications.helpers import seat_to_move, two_people

pytestmark = pytest.mark.django_db


def test_presence_is_written_at_most_every_ten_seconds():
    game, _users = two_people()
    seat = seat_to_move(game)
    now = timezone.now()
    presence.seat_record_presence(seat=seat, now=now)
    presence.seat_record_presence(seat=seat, now=now + timedelta(seconds=5))
    seat.refresh_from_db()
    assert seat.last_seen_at == now
    presence.seat_record_presence(seat=seat, now=now + timedelta(seconds=11))
    seat.refresh_from_db()
    assert seat.last_seen_at == now + timedelta(seconds=11)
    # Seen 31 s ago is not watching any more.
    assert not presence.is_watching(seat, now + timedelta(seconds=42))
