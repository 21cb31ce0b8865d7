"""Games' reviews: each person's decisions set beside the hard level's (engine bots/review.py),
made in the background after each round ends, a little at a time, and only when nothing more
pressing waits.

`game_review` is the task's work (games.tasks.game_review, on the `reviews` queue): it reviews
the rounds that have ended and are not yet reviewed, for every person at the table, storing a
RoundReview per seat and round (once: a second run finds them stored). A run spends at most
REVIEW_SLICE_SECONDS of CPU (at least one round); what is left, and a run that finds a bot's
turn or a mail waiting in the other queues, is queued again REVIEW_PAUSE_SECONDS later. So a
busy site reviews later, never slower."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from .engine import Rules, action_from_dict
from .engine.bots.review import RoundReview as Reviewed
from .engine.bots.review import review
from .health import queue_depths
from .models import PRICED_BEFORE, Game, Move, RoundReview, Seat
from .oncommit import enqueue_now

logger = logging.getLogger(__name__)
PRESSING = ("celery", "bots")  # the queues a review gives way to


def pressing_work() -> bool:
    """Whether a bot's turn or a mail is waiting in its queue (on Redis; the embedded default's
    folder broker says nothing, and its one worker takes the queues in turn)."""
    return any(queue_depths().get(queue) for queue in PRESSING)


def review_when_free(*, game_id: int) -> int:
    """The task's work: the review, unless more pressing work waits (then a moment later)."""
    if pressing_work():
        _later(game_id)
        return 0
    return game_review(game_id=game_id)


def game_review(*, game_id: int) -> int:
    """Review what has ended of the game and is not reviewed yet; the rounds stored."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status == Game.Status.OPEN:
        return 0
    people = {s.index: s for s in Seat.objects.filter(game=game, user__is_bot=False)}
    RoundReview.objects.filter(PRICED_BEFORE, seat__game=game).delete()  # made again below
    reviewed = RoundReview.objects.filter(seat__game=game, seat__user__is_bot=False)
    done = set(reviewed.values_list("seat__index", "round_index"))
    # The rounds that have ended (of a game ended early, not its last).
    ended = len(game.state["round_results"]) if game.state else 0
    todo = [r for r in range(ended) if any((i, r) not in done for i in people)]
    if not todo:
        return 0
    moves = Move.objects.filter(game=game).order_by("seq").values_list("action", "by_bot")
    started = time.thread_time()
    stored = 0
    for reviewed in review(
        Rules.from_dict(game.rules),
        game.seat_count,
        game.seed,
        ((action_from_dict(action), by_bot) for action, by_bot in moves.iterator()),
        seats=people,
        rounds=todo,
    ):
        if (reviewed.seat, reviewed.round_index) not in done:
            stored += _store(people[reviewed.seat], reviewed)
        last_seat = reviewed.seat == max(people)
        if last_seat and time.thread_time() - started > settings.REVIEW_SLICE_SECONDS:
            if reviewed.round_index != todo[-1]:
                _later(game_id)
            break
    return stored


def _store(seat: Seat, reviewed: Reviewed) -> int:
    try:
        with transaction.atomic():
            RoundReview.objects.create(
                seat=seat,
                round_index=reviewed.round_index,
                decisions=[decision.to_dict() for decision in reviewed.decisions],
                judged=len(reviewed.decisions),
                accurate=reviewed.accurate,
                lost=round(reviewed.lost, 1),
            )
    except IntegrityError:  # another run stored it first
        return 0
    return 1


def _later(game_id: int, countdown: float | None = None) -> None:
    if countdown is None:
        countdown = settings.REVIEW_PAUSE_SECONDS
    try:
        enqueue_now("games.tasks.game_review", (game_id,), countdown=countdown or None)
    except Exception:  # the broker is away: the page asks again when it is looked at
        logger.warning("Could not queue the review of game %s", game_id)


def review_requested(game_id: int) -> None:
    """Queue the review of the game's ended rounds now (a page found one missing)."""
    _later(game_id, countdown=0)


def unreviewed_requested(limit: int) -> list[int]:
    """Queue the review of the latest `limit` finished games in which a person played and none
    was reviewed (games finished before reviews were made, or whose tasks were all lost); their
    ids, latest first."""
    people = Seat.objects.filter(game=OuterRef("pk"), user__is_bot=False)
    reviewed = RoundReview.objects.filter(seat__game=OuterRef("pk"))
    games = list(
        Game.objects.filter(status=Game.Status.FINISHED)
        .filter(Exists(people))
        .exclude(Exists(reviewed))
        .order_by("-finished_at", "-pk")
        .values_list("pk", flat=True)[:limit]
    )
    for game_id in games:
        review_requested(game_id)
    return games
