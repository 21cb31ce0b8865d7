"""A person's turn running out: autopilot, the timeouts that follow, the drop at the game's limit,
and the player coming back ("I'm back")."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User

from ..clock import clock_end, time_per_move
from ..engine import GameState
from ..errors import GameError
from ..guards import require_may_play, seat_of
from ..locking import lock_game
from ..models import Game, Seat
from ..notifications.outbox import dropped_queue, timed_out_queue
from ..oncommit import enqueue_on_commit
from ..selectors.pauses import turn_deadline, vacation_pauses
from ..services import game_finish, game_queue_next
from .report import SweepReport


@transaction.atomic
def turn_time_out(*, game_id: int, now: datetime, report: SweepReport | None = None) -> bool:
    """The player to move ran out of time: autopilot (and maybe a drop). False if not due."""
    report = report or SweepReport()
    game = lock_game(game_id)
    if game.status != Game.Status.ACTIVE or game.deadline is None or game.to_move_seat is None:
        return False
    seat = game.seats.select_related("user").get(index=game.to_move_seat)
    if seat.played_by_bot:
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
    timed_out_queue(game=game, seat=seat)
    _count_timeouts(game, seat, now, report)
    game.save()
    game_queue_next(game=game)  # the bot plays the turn (nothing if the game just ended)
    return True


@transaction.atomic
def autopilot_count_timeouts(*, seat_id: int, now: datetime, report: SweepReport | None = None):
    """Count the timeouts a seat on autopilot has run up by `now`; drop the player at the
    game's limit."""
    report = report or SweepReport()
    game_id = Seat.objects.filter(pk=seat_id).values_list("game_id", flat=True).first()
    if game_id is None:
        return
    game = lock_game(game_id)
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
    per_move = time_per_move(game.time_per_move_days)
    before = seat.timeouts
    while seat.timeouts < limit:
        due = clock_end(seat.autopilot_since, per_move * seat.timeouts, pauses)
        if due > now:
            break
        seat.timeouts += 1
    report.timeouts += seat.timeouts - before
    if seat.timeouts != before:
        seat.save(update_fields=["timeouts"])
    if seat.timeouts >= limit:
        seat_drop(game=game, seat=seat, now=now)
        report.dropped += 1


def seat_drop(*, game: Game, seat: Seat, now: datetime) -> None:
    """Too many timeouts: the player is out (ranked last like a resignation); a bot keeps the
    seat. As with resigning, fewer than two people left playing ends the game. The caller holds
    the game's lock and saves the game row."""
    seat.resigned = True
    seat.dropped = True
    seat.autopilot = False
    seat.save(update_fields=["resigned", "dropped", "autopilot"])
    dropped_queue(game=game, seat=seat)
    # A league member dropped forfeits the rest of their season (games/competitions/leagues.py).
    enqueue_on_commit("games.tasks.game_finished", (game.pk,))
    if game.seats.filter(user__is_bot=False, resigned=False).count() < 2:
        state = GameState.from_dict(game.state)
        game_finish(game=game, state=state, now=now, reason=Game.EndReason.DROPPED)


@transaction.atomic
def seat_resume(*, game_id: int, user: User) -> Seat:
    """The player is back: autopilot off, timeouts forgiven. If it is their turn, their clock
    starts again now (the autopilot's deadline had already run out)."""
    require_may_play(user)  # a suspended player's autopilot plays on
    game = lock_game(game_id)
    seat = seat_of(game, user)
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
