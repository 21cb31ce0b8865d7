"""What is due at a moment: the sweep's queries. Each only proposes; the write that follows
re-checks under the game's lock."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q

from ..clock import reminder_thresholds
from ..models import TIME_PER_MOVE_DAYS, Game, Notification, Seat


def seat_to_move():
    """The seat to move of the game in the outer query."""
    return Seat.objects.filter(game=OuterRef("pk"), index=OuterRef("to_move_seat"))


def person_to_move():
    """The seat to move is played by its player (a person, or a player's own bot through the
    API), not by the site (its bots, autopilot, a resigned seat)."""
    site_bot = Q(user__is_bot=True, user__owner__isnull=True)
    return Exists(seat_to_move().exclude(site_bot).filter(autopilot=False, resigned=False))


def overdue_game_ids(now: datetime) -> list[int]:
    games = Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now)
    return list(games.filter(person_to_move()).order_by("deadline").values_list("pk", flat=True))


def absent_seat_ids(now: datetime) -> list[int]:
    """Seats on autopilot whose next timeout may have come (vacations only delay it; the locked
    re-check counts them in)."""
    seats = Seat.objects.filter(
        autopilot=True,
        resigned=False,
        autopilot_since__isnull=False,
        game__status=Game.Status.ACTIVE,
        game__time_per_move_days__isnull=False,
    ).values_list("pk", "autopilot_since", "timeouts", "game__time_per_move_days")
    return [
        pk
        for pk, since, timeouts, days in seats
        if since + timedelta(days=days) * max(timeouts, 1) <= now
    ]


def reminder_game_ids(now: datetime) -> list[int]:
    """Games whose person to move has passed a reminder threshold with no reminder on record at
    or above it for this turn. Judged without vacations (which only delay a threshold), so a game
    may turn out not to be due yet; the locked re-check decides."""
    thresholds = reminder_thresholds()
    due = Q()
    for i, percent in enumerate(thresholds):
        latest = _passed(percent, now)
        if i + 1 < len(thresholds):
            latest &= ~_passed(thresholds[i + 1], now)
        recorded = Notification.objects.filter(
            game=OuterRef("pk"),
            kind=Notification.Kind.REMINDER,
            turn=OuterRef("turn_version"),
            threshold__gte=percent,
        )
        due |= latest & ~Exists(recorded)
    if not thresholds:
        return []
    games = Game.objects.filter(due, status=Game.Status.ACTIVE, deadline__gt=now)
    return list(games.filter(person_to_move()).values_list("pk", flat=True))


def _passed(percent: int, now: datetime) -> Q:
    """`percent` of the game's time per move has run since the turn began (vacations aside)."""
    passed = Q()
    for days in TIME_PER_MOVE_DAYS:
        since = now - timedelta(days=days) * percent / 100
        passed |= Q(time_per_move_days=days, turn_started_at__lte=since)
    return passed


def bot_stall() -> timedelta:
    """How long a bot's turn may stand before its task counts as lost."""
    return timedelta(seconds=max(30.0, 10 * settings.BOT_MOVE_DELAY_SECONDS))


def stalled_bot_games(now: datetime) -> list[tuple[int, int]]:
    """(game id, version) of games where a bot (or autopilot, or a resigned seat) has been to
    move for longer than bot_stall()."""
    site_bot = Q(user__is_bot=True, user__owner__isnull=True)
    bot_to_move = seat_to_move().filter(site_bot | Q(autopilot=True) | Q(resigned=True))
    games = Game.objects.filter(status=Game.Status.ACTIVE, turn_started_at__lte=now - bot_stall())
    return list(games.filter(Exists(bot_to_move)).values_list("pk", "version"))
