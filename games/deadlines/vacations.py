"""Vacations: booking whole UTC days off (14 a year by default), cancelling or ending them, and
moving the deadlines of the player's turns to fit. While on vacation a player's clocks stand
still, and no reminders or 'your turn' mail go out. The model is accounts.Vacation (a player's
own record); games owns what it does to the clocks."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User, Vacation
from accounts.selectors import preferences_of

from ..clock import days_of, midnight
from ..errors import GameError
from ..locking import lock_game
from ..models import Game, Seat
from ..selectors.pauses import turn_deadline

# How far ahead a vacation may be booked.
VACATION_BOOKING_HORIZON_DAYS = 366


def vacation_days_used(user: User, year: int, *, extra: set[date] = frozenset()) -> int:
    """Calendar days of `year` that the player's vacations (and `extra`) touch."""
    days = set(extra)
    for begin, end in Vacation.objects.filter(user=user).values_list("starts_at", "ends_at"):
        days |= days_of(begin, end)
    return sum(1 for day in days if day.year == year)


def vacation_overview(user: User, now: datetime | None = None) -> dict:
    """What the vacation page shows: the bank for this year, and the vacations not yet over."""
    now = now or timezone.now()
    year = now.astimezone(UTC).year
    bank = preferences_of(user).vacation_days_per_year
    used = vacation_days_used(user, year)
    vacations = Vacation.objects.filter(user=user, ends_at__gt=now).order_by("starts_at")
    return {
        "year": year,
        "bank": bank,
        "used": used,
        "left": max(bank - used, 0),
        "vacations": [
            {
                "vacation": v,
                "first_day": v.starts_at.astimezone(UTC).date(),
                "last_day": (v.ends_at.astimezone(UTC) - timedelta(microseconds=1)).date(),
                "under_way": v.starts_at <= now,
            }
            for v in vacations
        ],
        "on_vacation": any(v.starts_at <= now for v in vacations),
    }


@transaction.atomic
def vacation_book(
    *, user: User, first_day: date, last_day: date, now: datetime | None = None
) -> Vacation:
    """Book whole days off, from first_day to last_day inclusive (UTC)."""
    now = now or timezone.now()
    today = now.astimezone(UTC).date()
    User.objects.select_for_update().get(pk=user.pk)  # one booking at a time per player
    if first_day < today:
        raise GameError(_("A vacation cannot start in the past."))
    if last_day < first_day:
        raise GameError(_("A vacation ends on or after the day it starts."))
    if last_day > today + timedelta(days=VACATION_BOOKING_HORIZON_DAYS):
        raise GameError(_("Book vacations at most a year ahead."))
    starts_at, ends_at = midnight(first_day), midnight(last_day + timedelta(days=1))
    if Vacation.objects.filter(user=user, starts_at__lt=ends_at, ends_at__gt=starts_at).exists():
        raise GameError(_("That overlaps a vacation you have already booked."))
    bank = preferences_of(user).vacation_days_per_year
    new_days = days_of(starts_at, ends_at)
    for year in sorted({day.year for day in new_days}):
        used = vacation_days_used(user, year, extra=new_days)
        if used > bank:
            raise GameError(
                _("That would use %(used)d vacation days in %(year)d; you have %(bank)d a year.")
                % {"used": used, "year": year, "bank": bank}
            )
    vacation = Vacation.objects.create(user=user, starts_at=starts_at, ends_at=ends_at)
    _deadlines_follow_vacations(user)
    return vacation


@transaction.atomic
def vacation_end(*, user: User, vacation_id: int, now: datetime | None = None) -> None:
    """Cancel a vacation not yet started, or end one under way now."""
    now = now or timezone.now()
    User.objects.select_for_update().get(pk=user.pk)
    vacation = Vacation.objects.filter(pk=vacation_id, user=user).first()
    if vacation is None or vacation.ends_at <= now:
        raise GameError(_("There is no such vacation to end."), status=404)
    if vacation.starts_at >= now:
        vacation.delete()
    else:
        vacation.ends_at = now
        vacation.save(update_fields=["ends_at"])
    _deadlines_follow_vacations(user)


def _deadlines_follow_vacations(user: User) -> None:
    """Move the deadlines of the turns this player has now to fit their vacations (the games
    locked in ascending id, after the player's row: locking's order)."""
    to_move = Seat.objects.filter(
        game=OuterRef("pk"), index=OuterRef("to_move_seat"), user=user, autopilot=False
    )
    games = Game.objects.filter(status=Game.Status.ACTIVE, time_per_move_days__isnull=False)
    for game_id in games.filter(Exists(to_move)).order_by("pk").values_list("pk", flat=True):
        game = lock_game(game_id)
        if game.status != Game.Status.ACTIVE or game.turn_started_at is None:
            continue
        game.deadline = turn_deadline(
            game=game, seat_index=game.to_move_seat, start=game.turn_started_at
        )
        game.save(update_fields=["deadline"])
