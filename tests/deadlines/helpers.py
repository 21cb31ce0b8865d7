"""Shared by the deadline tests. Time is passed in (`now=`), so a test can stand days after a turn
began."""

from datetime import UTC, datetime, timedelta

from games.models import Notification, Seat
from games.notifications import outbox
from tests.factories import GameFactory

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


def at(day: int, hour: int = 0) -> datetime:
    return datetime(2030, 1, day, hour, tzinfo=UTC)


def timed_game(players=2, days=1, **options):
    """A started game of new players with `days` per move, and its players by seat."""
    game = GameFactory(started=True, seat_count=players, time_per_move_days=days, **options)
    return game, [seat.user for seat in game.seats.order_by("index").select_related("user")]


def to_move(game) -> Seat:
    game.refresh_from_db()
    return game.seats.select_related("user").get(index=game.to_move_seat)


def changes(report) -> tuple:
    """What a sweep changed in the games (queuing a lost task again changes nothing)."""
    return (report.timed_out, report.timeouts, report.dropped, report.reminders)


def send_pending(kind="reminder"):
    """Run the send task's service for every pending mail of `kind`, as the worker would."""
    pending = Notification.objects.filter(status="pending", kind=kind)
    for pk in pending.values_list("pk", flat=True):
        outbox.notification_send(notification_id=pk)
