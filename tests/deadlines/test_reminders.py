"""Reminders (games/deadlines/reminders.py): once per threshold, only the latest after an outage,
not when unwanted or played, on the vacation clock."""

import pytest
from django.core import mail

from accounts.models import Vacation
from accounts.services import preferences_update
from games.deadlines.sweep import sweep
from games.models import Notification
from games.selectors import pauses
from tests.deadlines.helpers import DAY, HOUR, send_pending, timed_game, to_move
from tests.factories import play_one

pytestmark = pytest.mark.django_db


def test_a_reminder_goes_out_once_per_threshold_however_often_the_sweep_runs():
    game, _users = timed_game(days=2)
    seat, start = to_move(game), game.turn_started_at
    assert sweep(now=start + DAY - HOUR).reminders == 0
    assert sweep(now=start + DAY + HOUR).reminders == 1
    assert sweep(now=start + DAY + 2 * HOUR).reminders == 0
    send_pending()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [seat.user.email]
    assert "left for your move" in mail.outbox[0].subject
    assert "\xa0" not in mail.outbox[0].subject  # plain spaces in "1 day, 2 hours"
    assert sweep(now=start + 2 * DAY - 3 * HOUR).reminders == 1  # 90 %
    assert sweep(now=start + 2 * DAY - 3 * HOUR).reminders == 0
    send_pending()
    assert len(mail.outbox) == 2
    thresholds = Notification.objects.filter(kind="reminder", user=seat.user)
    assert sorted(thresholds.values_list("threshold", "status")) == [(50, "sent"), (90, "sent")]


def test_after_an_outage_only_the_latest_reminder_goes_out():
    game, _users = timed_game(days=2)
    start = game.turn_started_at
    assert sweep(now=start + 2 * DAY - 3 * HOUR).reminders == 1
    send_pending()
    assert len(mail.outbox) == 1
    rows = Notification.objects.filter(kind="reminder").order_by("threshold")
    assert [(r.threshold, r.status, r.reason) for r in rows] == [
        (50, "skipped", "superseded"),
        (90, "sent", ""),
    ]


def test_a_reminder_is_not_sent_to_someone_who_turned_them_off_nor_once_the_turn_is_played():
    game, _users = timed_game(days=2)
    seat, start = to_move(game), game.turn_started_at
    preferences_update(user=seat.user, reminders=False)
    sweep(now=start + DAY + HOUR)
    row = Notification.objects.get(kind="reminder")
    assert (row.status, row.reason) == ("skipped", "preference")
    assert sweep(now=start + DAY + 2 * HOUR).reminders == 0
    preferences_update(user=seat.user, reminders=True)
    sweep(now=start + 2 * DAY - 3 * HOUR)
    play_one(game, {seat.index: seat.user})
    play_one(game, {seat.index: seat.user})
    send_pending()
    assert Notification.objects.get(kind="reminder", threshold=90).reason == "moved_on"
    assert not mail.outbox


def test_reminders_respect_the_vacation_clock():
    game, _users = timed_game(days=2)
    seat, start = to_move(game), game.turn_started_at
    Vacation.objects.create(user=seat.user, starts_at=start + HOUR, ends_at=start + 3 * DAY)
    game.deadline = pauses.turn_deadline(game=game, seat_index=seat.index, start=start)
    game.save(update_fields=["deadline"])
    # One hour ran before the vacation; half the time (a day) is gone 23 hours after it.
    assert sweep(now=start + DAY + HOUR).reminders == 0
    assert sweep(now=start + 3 * DAY + 22 * HOUR).reminders == 0
    assert sweep(now=start + 3 * DAY + 24 * HOUR).reminders == 1
