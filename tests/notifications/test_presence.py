"""Presence at the table (games/notifications/presence.py)."""

from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import services
from games.asynchronous_commit import asynchronous_commit
from games.models import Seat
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


def synchronous_commit() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_presence_and_seen_marks_commit_without_waiting_for_the_disk_but_never_a_move():
    """games/asynchronous_commit.py: on its own, such a write's transaction turns
    synchronous_commit off for itself alone; inside a transaction already open (a move's) it
    leaves it as it is."""
    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL setting (the embedded SQLite default has no such thing)")
    with asynchronous_commit():
        assert synchronous_commit() == "off"
    assert synchronous_commit() == "on"  # the next transaction on this connection waits again
    with transaction.atomic(), asynchronous_commit():  # as inside a move's transaction
        assert synchronous_commit() == "on"
    game, _users = two_people()
    seat = seat_to_move(game)
    seen = []
    real_update = Seat.objects.filter(pk=seat.pk).update.__func__

    def spy(queryset, **fields):
        seen.append(synchronous_commit())
        return real_update(queryset, **fields)

    with mock.patch("django.db.models.query.QuerySet.update", spy):
        services.seat_mark_seen(seat=seat, version=seat.seen_version + 1, chat=0)
        presence.seat_record_presence(seat=seat, now=timezone.now() + timedelta(seconds=30))
    assert seen == ["off", "off"]
    seat.refresh_from_db()
    assert seat.seen_version == 1 and seat.last_seen_at is not None
