"""A player's clock as stored: their vacations as pauses, whether they are on one now, and the
deadline of a turn starting at a given moment."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.utils import timezone

from accounts.models import Vacation

from ..clock import Pause, clock_end, merged_pauses, time_per_move
from ..models import Game


def vacation_pauses(user_id: int, since: datetime) -> list[Pause]:
    """The player's vacations that end after `since`, as clock pauses."""
    rows = Vacation.objects.filter(user_id=user_id, ends_at__gt=since)
    return merged_pauses(rows.values_list("starts_at", "ends_at"))


def on_vacation(user_id: int, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now).exists()


def turn_deadline(*, game: Game, seat_index: int | None, start: datetime) -> datetime | None:
    """The deadline of a turn of `seat_index` starting at `start` (None: no time limit)."""
    if not game.time_per_move_days or seat_index is None:
        return None
    rows = Vacation.objects.filter(
        user__seats__game=game, user__seats__index=seat_index, ends_at__gt=start
    )
    pauses = merged_pauses(rows.values_list("starts_at", "ends_at"))
    return clock_end(start, time_per_move(game.time_per_move_days), pauses)


def vacations_under_way(
    user_ids: Iterable[int], now: datetime | None = None
) -> dict[int, datetime]:
    """When the vacation under way of each of these players ends (those on one), in one query."""
    now = now or timezone.now()
    rows = Vacation.objects.filter(user_id__in=user_ids, starts_at__lte=now, ends_at__gt=now)
    return dict(rows.order_by("ends_at").values_list("user_id", "ends_at"))
