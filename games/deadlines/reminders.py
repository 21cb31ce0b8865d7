"""The reminder due on a turn: when REMINDER_FRACTIONS of the player's own clock have run
(vacations stop it), once per turn and threshold; only the latest when several passed."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from ..clock import clock_end, reminder_thresholds, time_per_move
from ..locking import lock_game
from ..models import Game, Notification
from ..notifications.outbox import notification_queue, notification_record_skipped
from ..selectors.pauses import vacation_pauses


@transaction.atomic
def reminders_queue(*, game_id: int, now: datetime) -> int:
    """Queue the latest reminder due on this game's turn, once; returns how many were queued."""
    game = lock_game(game_id)
    if game.status != Game.Status.ACTIVE or game.deadline is None or game.deadline <= now:
        return 0
    seat = game.seats.select_related("user").get(index=game.to_move_seat)
    if seat.played_by_bot:
        return 0
    pauses = vacation_pauses(seat.user_id, game.turn_started_at)
    per_move = time_per_move(game.time_per_move_days)
    passed = [
        percent
        for percent in reminder_thresholds()
        if clock_end(game.turn_started_at, per_move * percent / 100, pauses) <= now
    ]
    done = set(
        Notification.objects.filter(
            user=seat.user, game=game, kind=Notification.Kind.REMINDER, turn=game.turn_version
        ).values_list("threshold", flat=True)
    )
    if not passed or max(done, default=0) >= passed[-1]:
        return 0
    for percent in passed[:-1]:
        if percent not in done:
            notification_record_skipped(
                user=seat.user,
                kind=Notification.Kind.REMINDER,
                game=game,
                turn=game.turn_version,
                threshold=percent,
                reason="superseded",
            )
    queued = notification_queue(
        user=seat.user,
        kind=Notification.Kind.REMINDER,
        game=game,
        turn=game.turn_version,
        threshold=passed[-1],
    )
    return int(any(row.status == Notification.Status.PENDING for row in queued))
