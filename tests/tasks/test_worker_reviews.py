"""Games' reviews through a real worker on Redis: made after a round ends, on their own queue,
and only once nothing more pressing waits."""

import os

import pytest

from config.celery import app as celery_app
from games.models import RoundReview
from games.oncommit import enqueue_now
from tests.factories import UserFactory, play_on, started_game
from tests.workers import clear_broker, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_round_that_ends_is_reviewed_by_the_worker(worker, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": (10**6, 60)}
    person = UserFactory()
    game = started_game([person], bots="easy", seat_count=2)
    play_on(game, until=lambda game: game.round_index >= 1, level="medium")
    mine = RoundReview.objects.filter(seat__game=game, seat__user=person, round_index=0)
    assert wait_for(mine.exists)
    assert not RoundReview.objects.filter(seat__game=game, seat__user__is_bot=True).exists()


def test_a_review_waits_while_bot_turns_are_queued(settings):
    """Reviews have a queue of their own and give way: a review queued ahead of 60 bot turns
    is stored only once none of them is left waiting."""
    import redis
    from celery.contrib.testing.worker import start_worker

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": (10**6, 60)}
    settings.REVIEW_PAUSE_SECONDS = 0.2
    person = UserFactory()
    game = started_game([person], bots="easy", seat_count=2)
    play_on(game, until=lambda game: game.round_index >= 1, level="medium")
    clear_broker()
    # Sent through the site's own app (a task's .delay() follows Celery's current app, which
    # another test's client app may have become).
    enqueue_now("games.tasks.game_review", (game.pk,))
    for _ in range(60):  # turns of a game that is gone: each a quick no-op in the worker
        enqueue_now("games.tasks.bot_move", (10**9, 1))
    broker = redis.Redis.from_url(os.environ["REDIS_URL"])
    assert broker.llen("reviews") == 1 and broker.llen("bots") == 60
    left_when_stored = []

    def stored():
        bots = broker.llen("bots")
        if RoundReview.objects.filter(seat__game=game).exists():
            left_when_stored.append(bots)
            return True
        return False

    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        assert wait_for(stored, timeout=60, interval=0.01)
    assert left_when_stored == [0]
