"""The sweep (games/deadlines/sweep.py): catching up exactly after an outage, queueing lost bot
turns again, two sweeps at once, and its cost."""

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from games.deadlines.sweep import sweep
from games.models import Notification
from tests.deadlines.helpers import DAY, HOUR, changes, timed_game, to_move
from tests.factories import UserFactory, play_one, started_game

pytestmark = pytest.mark.django_db


def test_a_sweep_that_was_down_for_days_catches_up_exactly_and_only_once():
    game, _users = timed_game(players=3, days=1, max_timeouts=3)
    seat, deadline = to_move(game), game.deadline
    report = sweep(now=deadline + 10 * DAY)
    assert (report.timed_out, report.timeouts, report.dropped) == (1, 2, 1)
    seat.refresh_from_db()
    assert seat.dropped and seat.timeouts == 3
    assert changes(sweep(now=deadline + 10 * DAY)) == (0, 0, 0, 0)


def test_a_lost_bot_task_is_queued_again_by_the_sweep():
    human = UserFactory()
    game = started_game([human], seat_count=2, bots="easy")
    if to_move(game).user == human:
        play_one(game, {0: human})
        play_one(game, {0: human})
    assert to_move(game).user.is_bot
    assert sweep(now=timezone.now()).bots_requeued == 0  # it has only just started
    # The sweep runs every 30 s: a bot turn 30 s old is taken up, so within about a minute.
    assert sweep(now=timezone.now() + timedelta(seconds=31)).bots_requeued == 1


def _at_once(work, times=2):
    """Run `work` in several threads started together, each on its own connection."""
    from django.db import connection

    barrier, results = threading.Barrier(times), []

    def run():
        barrier.wait()
        try:
            results.append(work())
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(results) == times
    return results


@pytest.mark.concurrency
@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_send_one_reminder_and_count_one_timeout():
    game, _users = timed_game(players=3, days=2)
    seat, start = to_move(game), game.turn_started_at
    reports = _at_once(lambda: sweep(now=start + DAY + HOUR))
    assert sum(r.reminders for r in reports) == 1
    assert Notification.objects.filter(kind="reminder").count() == 1
    reports = _at_once(lambda: sweep(now=start + 2 * DAY + HOUR))
    assert sum(r.timed_out for r in reports) == 1
    seat.refresh_from_db()
    assert seat.autopilot and seat.timeouts == 1


@pytest.mark.queries
def test_a_sweep_with_nothing_new_costs_the_same_few_queries_however_many_games(
    django_assert_max_num_queries,
):
    games = [timed_game(days=2)[0] for _ in range(3)]
    start = max(g.turn_started_at for g in games)
    assert sweep(now=start + DAY + HOUR).reminders == 3
    Notification.objects.update(enqueued_at=start + DAY + HOUR)  # the worker has them
    with django_assert_max_num_queries(5):
        report = sweep(now=start + DAY + HOUR + timedelta(seconds=30))  # next sweep
    assert not any(report.as_dict().values())
