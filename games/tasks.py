"""Celery tasks: thin, take ids, safe to run twice. Nothing imports this module: work is queued by
task name through games/oncommit.py."""

from celery import shared_task
from celery.signals import worker_init
from django.db import Error as DatabaseErrors
from django.db import InterfaceError, OperationalError

from . import reviews, services
from .competitions import leagues, tournaments
from .deadlines.sweep import sweep
from .notifications import outbox, policy

# A database that does not answer (a restart, a failover) is waited out: the task runs again
# after 1, 2, 4, 8, 16, then every 30 s, so that a bot's turn or a mail goes on a moment after
# the database is back rather than when the sweep finds it lost, a minute later. An outage that
# outlasts the retries is left to the sweep.
DATABASE_DOWN = (OperationalError, InterfaceError)
WAIT_OUT_THE_DATABASE = {
    "autoretry_for": DATABASE_DOWN,
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "retry_jitter": False,
    "max_retries": 8,
}


@shared_task
def heartbeat(name: str = "worker") -> None:
    services.heartbeat_record(name=name)


@worker_init.connect
def heartbeat_on_start(sender, **kwargs) -> None:
    """A worker that starts proves itself at once, through the broker like beat's heartbeat,
    so /healthz is green seconds after a (re)start, not at beat's next tick (up to 30 s)."""
    heartbeat.delay()


@shared_task(**WAIT_OUT_THE_DATABASE)
def bot_move(game_id: int, version: int) -> bool:
    """Play the bot's turn if the game is still where it was when the task was queued."""
    return services.bot_play_turn(game_id=game_id, version=version)


@shared_task
def deadlines_sweep() -> dict:
    """Overdue turns, autopilot, drops, reminders, lost tasks (beat, every 30 s). Its last run
    is a heartbeat of its own, which /metrics shows: only beat queues it."""
    report = sweep().as_dict()
    services.heartbeat_record(name="deadlines_sweep")
    return report


@shared_task
def digests_send() -> int:
    """Today's digests, for those who chose one and have a game waiting (beat)."""
    return outbox.digests_queue()


@shared_task(bind=True, **WAIT_OUT_THE_DATABASE)
def send_notification(self, notification_id: int) -> str:
    """Send one recorded email or push, retrying with backoff while the mail server or push
    service fails; a no-op once it is sent or no longer wanted."""
    try:
        return outbox.notification_send(notification_id=notification_id)
    except policy.SEND_ERRORS as error:
        if self.request.retries >= self.max_retries:
            outbox.notification_mark_failed(
                notification_id=notification_id, reason=type(error).__name__
            )
            raise
        delay = policy.retry_delay(self.request.retries)
        outbox.notification_postpone(notification_id=notification_id, seconds=delay)
        raise self.retry(exc=error, countdown=delay) from error
    except DatabaseErrors:  # InterfaceError (a closed connection) is no DatabaseError
        raise  # the row stays pending: retried while the database is down, else the sweep
    except Exception as error:  # no retry can fix it (an address with a line break, say)
        outbox.notification_mark_failed(
            notification_id=notification_id, reason=type(error).__name__
        )
        raise


@shared_task(**WAIT_OUT_THE_DATABASE)
def game_finished(game_id: int) -> dict:
    """A game ended (services.game_finish), or a player was dropped from it: the league division
    or the tournament round it belongs to goes on (each looks whether it is one of theirs)."""
    return {
        "league": leagues.league_game_finished(game_id=game_id),
        "tournament": tournaments.tournament_game_finished(game_id=game_id),
    }


@shared_task(**WAIT_OUT_THE_DATABASE)
def game_review(game_id: int) -> int:
    """Review the game's ended rounds (games/reviews.py), on the `reviews` queue."""
    return reviews.review_when_free(game_id=game_id)


@shared_task
def tournaments_sweep() -> dict:
    """Tournaments due to start, rounds whose last task was lost (beat)."""
    return tournaments.tournaments_sweep()


@shared_task(**WAIT_OUT_THE_DATABASE)
def league_division_advance(division_id: int) -> int:
    return leagues.division_advance(division_id=division_id)


@shared_task
def leagues_sweep() -> dict:
    """Seasons to start, waves due, seasons to finish (beat, every few minutes)."""
    return leagues.leagues_sweep()
