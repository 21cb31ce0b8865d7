"""Deadlines, autopilot, drops and vacations: the writes behind the sweep Celery beat runs every
minute (`sweep`), and the player's vacation and "I'm back" actions.

The rules, as played:
- A turn's deadline is its start plus the game's time per move, the clock standing still while
  the player to move is on vacation. A vacation booked or ended during a turn moves its deadline.
- When the deadline of a person's turn passes, the seat goes on autopilot (one timeout): a bot
  plays it at once, and every turn after, until the player comes back (moves themselves, or
  presses "I'm back" on the table).
- Every further time per move on autopilot counts one more consecutive timeout (the player would
  have missed that deadline too). At the game's max_timeouts the player is dropped: resigned,
  ranked last, a bot keeps the seat; as with resigning, the game ends when fewer than two people
  are left playing.
- Reminders go out when REMINDER_FRACTIONS of the player's own clock have run (vacation stops it),
  once per turn per threshold. When several thresholds passed while the sweep was down, only the
  latest is sent; the earlier ones are recorded as superseded.
- Every step is computed from stored times, never from when the sweep happens to run: a sweep
  that was down catches up exactly, and running it twice changes nothing. Each game is handled in
  its own transaction, under its row lock, re-checked there.
- Vacations are booked in whole UTC days; every calendar day a vacation touches counts against
  that calendar year's bank (Preferences.vacation_days_per_year, 14 by default). A vacation in
  the future can be cancelled (its days come back); one under way can be ended now (the days
  touched so far stay counted).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User, Vacation
from accounts.selectors import preferences_of

from . import services
from .engine import GameState
from .models import TIME_PER_MOVE_DAYS, Game, Notification, Seat
from .services import GameError

logger = logging.getLogger(__name__)

Pause = tuple[datetime, datetime]
# How far ahead a vacation may be booked.
VACATION_BOOKING_HORIZON_DAYS = 366


# -- clocks ----------------------------------------------------------------------------------


def clock_end(start: datetime, duration: timedelta, pauses: list[Pause]) -> datetime:
    """When `duration` of running time has passed since `start`, the clock standing still during
    `pauses` (sorted, not overlapping)."""
    end = start + duration
    for pause_from, pause_to in pauses:
        if pause_from >= end:
            break
        if pause_to > start:
            end += pause_to - max(pause_from, start)
    return end


def _merged(intervals) -> list[Pause]:
    merged: list[Pause] = []
    for begin, end in sorted(intervals):
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((begin, end))
    return merged


def vacation_pauses(user_id: int, since: datetime) -> list[Pause]:
    """The player's vacations that end after `since`, as clock pauses."""
    rows = Vacation.objects.filter(user_id=user_id, ends_at__gt=since)
    return _merged(rows.values_list("starts_at", "ends_at"))


def on_vacation(user_id: int, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now).exists()


def time_per_move(game: Game) -> timedelta:
    return timedelta(days=game.time_per_move_days)


def turn_deadline(*, game: Game, seat_index: int | None, start: datetime) -> datetime | None:
    """The deadline of a turn of `seat_index` starting at `start` (None: no time limit)."""
    if not game.time_per_move_days or seat_index is None:
        return None
    rows = Vacation.objects.filter(
        user__seats__game=game, user__seats__index=seat_index, ends_at__gt=start
    )
    pauses = _merged(rows.values_list("starts_at", "ends_at"))
    return clock_end(start, time_per_move(game), pauses)


def reminder_thresholds() -> list[int]:
    """REMINDER_FRACTIONS as whole percents, ascending."""
    return sorted({round(f * 100) for f in settings.REMINDER_FRACTIONS if 0 < f < 1})


# -- the sweep -------------------------------------------------------------------------------


@dataclass
class SweepReport:
    timed_out: int = 0  # turns that ran out: the seat went on autopilot
    timeouts: int = 0  # further timeouts counted on autopilot
    dropped: int = 0  # players dropped
    reminders: int = 0  # reminders queued
    bots_requeued: int = 0  # bot turns queued again (their task was lost)
    mail_requeued: int = 0  # emails queued again (their task was lost)

    def as_dict(self) -> dict:
        return asdict(self)


def sweep(*, now: datetime | None = None) -> SweepReport:
    """Handle everything that is overdue at `now`; idempotent."""
    from . import notifications

    now = now or timezone.now()
    report = SweepReport()
    # First, so that a seat put on autopilot below is not counted as stalled before its bot ran.
    report.bots_requeued = _requeue_stalled_bots(now)
    for game_id in _overdue_game_ids(now):
        turn_time_out(game_id=game_id, now=now, report=report)
    for seat_id in _absent_seat_ids(now):
        autopilot_count_timeouts(seat_id=seat_id, now=now, report=report)
    for game_id in _reminder_game_ids(now):
        report.reminders += reminders_queue(game_id=game_id, now=now)
    report.mail_requeued = notifications.notifications_requeue_stale(now=now)
    if any(asdict(report).values()):
        logger.info("deadlines sweep: %s", report.as_dict())
    return report


def _seat_to_move():
    return Seat.objects.filter(game=OuterRef("pk"), index=OuterRef("to_move_seat"))


def _person_to_move():
    """The seat to move is a person playing for themselves (not a bot, autopilot, resigned)."""
    return Exists(_seat_to_move().filter(user__is_bot=False, autopilot=False, resigned=False))


def _overdue_game_ids(now: datetime) -> list[int]:
    games = Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now)
    return list(games.filter(_person_to_move()).order_by("deadline").values_list("pk", flat=True))


def _absent_seat_ids(now: datetime) -> list[int]:
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


@transaction.atomic
def turn_time_out(*, game_id: int, now: datetime, report: SweepReport | None = None) -> bool:
    """The player to move ran out of time: autopilot (and maybe a drop). False if not due."""
    report = report or SweepReport()
    game = services._lock_game(game_id)
    if game.status != Game.Status.ACTIVE or game.deadline is None or game.to_move_seat is None:
        return False
    seat = game.seats.select_related("user").get(index=game.to_move_seat)
    if seat.user.is_bot or seat.autopilot or seat.resigned:
        return False
    # The truth is the clock with today's vacations (one may have been booked since).
    deadline = turn_deadline(game=game, seat_index=seat.index, start=game.turn_started_at)
    if deadline != game.deadline:
        game.deadline = deadline
        game.save(update_fields=["deadline"])
    if deadline > now:
        return False
    seat.autopilot = True
    seat.timeouts += 1
    seat.autopilot_since = deadline
    seat.save(update_fields=["autopilot", "timeouts", "autopilot_since"])
    report.timed_out += 1
    _count_timeouts(game, seat, now, report)
    game.save()
    services._after_commit(game)  # the bot plays the turn (nothing if the game just ended)
    return True


@transaction.atomic
def autopilot_count_timeouts(*, seat_id: int, now: datetime, report: SweepReport | None = None):
    """Count the timeouts a seat on autopilot has run up by `now`; drop the player at the
    game's limit."""
    report = report or SweepReport()
    game_id = Seat.objects.filter(pk=seat_id).values_list("game_id", flat=True).first()
    if game_id is None:
        return
    game = services._lock_game(game_id)
    seat = game.seats.select_related("user").get(pk=seat_id)
    if (
        game.status != Game.Status.ACTIVE
        or not game.time_per_move_days
        or not seat.autopilot
        or seat.resigned
        or seat.autopilot_since is None
    ):
        return
    before = seat.timeouts
    _count_timeouts(game, seat, now, report)
    if seat.timeouts != before:
        game.save()


def _count_timeouts(game: Game, seat: Seat, now: datetime, report: SweepReport) -> None:
    """Catch the seat's timeouts up to `now`: the k-th falls (k - 1) times per move after the
    first, the clock stopped on vacation. At the limit the player is dropped."""
    limit = max(game.max_timeouts, 1)
    pauses = vacation_pauses(seat.user_id, seat.autopilot_since)
    before = seat.timeouts
    while seat.timeouts < limit:
        due = clock_end(seat.autopilot_since, time_per_move(game) * seat.timeouts, pauses)
        if due > now:
            break
        seat.timeouts += 1
    report.timeouts += seat.timeouts - before
    if seat.timeouts != before:
        seat.save(update_fields=["timeouts"])
    if seat.timeouts >= limit:
        _drop(game, seat, now)
        report.dropped += 1


def _drop(game: Game, seat: Seat, now: datetime) -> None:
    """Too many timeouts: the player is out (ranked last like a resignation); a bot keeps the
    seat. As with resigning, fewer than two people left playing ends the game."""
    seat.resigned = True
    seat.dropped = True
    seat.autopilot = False
    seat.save(update_fields=["resigned", "dropped", "autopilot"])
    if game.seats.filter(user__is_bot=False, resigned=False).count() < 2:
        state = GameState.from_dict(game.state)
        services._finish(game, state, now=now, reason=Game.EndReason.DROPPED)


def _reminder_game_ids(now: datetime) -> list[int]:
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
    return list(games.filter(_person_to_move()).values_list("pk", flat=True))


def _passed(percent: int, now: datetime) -> Q:
    """`percent` of the game's time per move has run since the turn began (vacations aside)."""
    passed = Q()
    for days in TIME_PER_MOVE_DAYS:
        since = now - timedelta(days=days) * percent / 100
        passed |= Q(time_per_move_days=days, turn_started_at__lte=since)
    return passed


@transaction.atomic
def reminders_queue(*, game_id: int, now: datetime) -> int:
    """Queue the latest reminder due on this game's turn, once; returns how many were queued."""
    from . import notifications

    game = services._lock_game(game_id)
    if game.status != Game.Status.ACTIVE or game.deadline is None or game.deadline <= now:
        return 0
    seat = game.seats.select_related("user").get(index=game.to_move_seat)
    if seat.user.is_bot or seat.autopilot or seat.resigned:
        return 0
    pauses = vacation_pauses(seat.user_id, game.turn_started_at)
    passed = [
        percent
        for percent in reminder_thresholds()
        if clock_end(game.turn_started_at, time_per_move(game) * percent / 100, pauses) <= now
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
            notifications.notification_record_skipped(
                user=seat.user,
                kind=Notification.Kind.REMINDER,
                game=game,
                turn=game.turn_version,
                threshold=percent,
                reason="superseded",
            )
    queued = notifications.notification_queue(
        user=seat.user,
        kind=Notification.Kind.REMINDER,
        game=game,
        turn=game.turn_version,
        threshold=passed[-1],
        record_unwanted=True,  # so that later sweeps know it was dealt with
    )
    return int(queued is not None and queued.status == Notification.Status.PENDING)


def _requeue_stalled_bots(now: datetime) -> int:
    """A bot's (or autopilot's) turn that has not moved for a while lost its task (a broker
    outage at commit, say): queue it again. bot_move is a no-op if it turns out to be a double."""
    stall = timedelta(seconds=max(30.0, 10 * settings.BOT_MOVE_DELAY_SECONDS))
    bot_to_move = _seat_to_move().filter(
        Q(user__is_bot=True) | Q(autopilot=True) | Q(resigned=True)
    )
    games = Game.objects.filter(status=Game.Status.ACTIVE, turn_started_at__lte=now - stall)
    stalled = list(games.filter(Exists(bot_to_move)).values_list("pk", "version"))
    if stalled:
        from .tasks import bot_move

        for game_id, version in stalled:
            bot_move.apply_async((game_id, version), expires=stall.total_seconds())
    return len(stalled)


# -- coming back -----------------------------------------------------------------------------


@transaction.atomic
def seat_resume(*, game_id: int, user: User) -> Seat:
    """The player is back: autopilot off, timeouts forgiven. If it is their turn, their clock
    starts again now (the autopilot's deadline had already run out)."""
    game = services._lock_game(game_id)
    seat = services._seat_of(game, user)
    if seat.dropped:
        raise GameError(_("You were dropped from this game after too many timeouts."), status=409)
    if seat.resigned:
        raise GameError(_("You resigned from this game."), status=409)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("This game is over."), status=409)
    if not seat.autopilot:
        return seat
    seat.autopilot = False
    seat.timeouts = 0
    seat.autopilot_since = None
    seat.save(update_fields=["autopilot", "timeouts", "autopilot_since"])
    if game.to_move_seat == seat.index:
        now = timezone.now()
        game.turn_started_at = now
        game.deadline = turn_deadline(game=game, seat_index=seat.index, start=now)
        game.save(update_fields=["turn_started_at", "deadline"])
    return seat


# -- vacations -------------------------------------------------------------------------------


def _days_of(vacation_from: datetime, vacation_to: datetime) -> set[date]:
    first = vacation_from.astimezone(UTC).date()
    last = (vacation_to.astimezone(UTC) - timedelta(microseconds=1)).date()
    return {first + timedelta(days=n) for n in range((last - first).days + 1)}


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def vacation_days_used(user: User, year: int, *, extra: set[date] = frozenset()) -> int:
    """Calendar days of `year` that the player's vacations (and `extra`) touch."""
    days = set(extra)
    for begin, end in Vacation.objects.filter(user=user).values_list("starts_at", "ends_at"):
        days |= _days_of(begin, end)
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
    starts_at, ends_at = _midnight(first_day), _midnight(last_day + timedelta(days=1))
    if Vacation.objects.filter(user=user, starts_at__lt=ends_at, ends_at__gt=starts_at).exists():
        raise GameError(_("That overlaps a vacation you have already booked."))
    bank = preferences_of(user).vacation_days_per_year
    new_days = _days_of(starts_at, ends_at)
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
    """Move the deadlines of the turns this player has now to fit their vacations."""
    to_move = Seat.objects.filter(
        game=OuterRef("pk"), index=OuterRef("to_move_seat"), user=user, autopilot=False
    )
    games = Game.objects.filter(status=Game.Status.ACTIVE, time_per_move_days__isnull=False)
    for game_id in games.filter(Exists(to_move)).order_by("pk").values_list("pk", flat=True):
        game = services._lock_game(game_id)
        if game.status != Game.Status.ACTIVE or game.turn_started_at is None:
            continue
        game.deadline = turn_deadline(
            game=game, seat_index=game.to_move_seat, start=game.turn_started_at
        )
        game.save(update_fields=["deadline"])
