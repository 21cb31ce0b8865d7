"""Vacations (games/deadlines/vacations.py, the page at /accounts/vacation/): the clock standing
still, deadlines that follow a booking or an ending, the yearly bank."""

from datetime import UTC, date, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation
from games.deadlines import vacations
from games.deadlines.sweep import sweep
from games.errors import GameError
from tests.deadlines.helpers import DAY, HOUR, timed_game, to_move
from tests.factories import UserFactory, play_one

pytestmark = pytest.mark.django_db


def test_a_turn_that_starts_during_a_vacation_gets_its_time_after_it():
    game, users = timed_game(days=2)
    person = to_move(game).user
    other = next(u for u in users if u != person)
    now = timezone.now()
    vacations.vacation_book(user=other, first_day=now.date(), last_day=now.date() + 3 * DAY)
    play_one(game, {s.index: s.user for s in game.seats.all()})
    play_one(game, {s.index: s.user for s in game.seats.all()})
    game.refresh_from_db()
    assert game.to_move_seat == users.index(other)
    vacation_end = datetime.combine(now.date() + 4 * DAY, datetime.min.time(), tzinfo=UTC)
    assert game.deadline == vacation_end + 2 * DAY


def test_a_vacation_booked_during_a_turn_moves_its_deadline_and_the_sweep_waits():
    game, _users = timed_game(days=1)
    seat, deadline = to_move(game), game.deadline
    today = timezone.now().date()
    vacations.vacation_book(user=seat.user, first_day=today + DAY, last_day=today + 2 * DAY)
    game.refresh_from_db()
    assert game.deadline == deadline + 2 * DAY
    assert sweep(now=deadline + HOUR).timed_out == 0
    assert sweep(now=game.deadline + HOUR).timed_out == 1


def test_a_deadline_recorded_before_a_vacation_is_checked_again_before_a_timeout():
    game, _users = timed_game(days=1)
    seat, deadline = to_move(game), game.deadline
    # Booked behind the service's back (as a race with the turn's start could leave it).
    Vacation.objects.create(user=seat.user, starts_at=deadline - HOUR, ends_at=deadline + DAY)
    assert sweep(now=deadline + HOUR).timed_out == 0
    game.refresh_from_db()
    assert game.deadline == deadline + DAY + HOUR


def test_cancelling_a_future_vacation_gives_its_days_back_and_restores_the_deadline():
    game, _users = timed_game(days=1)
    seat, deadline = to_move(game), game.deadline
    today = timezone.now().date()
    vacation = vacations.vacation_book(user=seat.user, first_day=today + DAY, last_day=today + DAY)
    assert vacations.vacation_overview(seat.user)["used"] == 1
    vacations.vacation_end(user=seat.user, vacation_id=vacation.pk)
    game.refresh_from_db()
    assert game.deadline == deadline
    assert vacations.vacation_overview(seat.user)["used"] == 0


def test_ending_a_vacation_under_way_keeps_the_days_so_far():
    user = UserFactory()
    now = datetime(2030, 3, 10, 12, tzinfo=UTC)
    vacation = vacations.vacation_book(
        user=user, first_day=date(2030, 3, 10), last_day=date(2030, 3, 14), now=now
    )
    vacations.vacation_end(user=user, vacation_id=vacation.pk, now=now + DAY)
    vacation.refresh_from_db()
    assert vacation.ends_at == now + DAY
    assert vacations.vacation_days_used(user, 2030) == 2


def test_the_vacation_bank_is_counted_per_calendar_year():
    user = UserFactory()
    now = datetime(2030, 12, 1, tzinfo=UTC)
    vacations.vacation_book(
        user=user, first_day=date(2030, 12, 1), last_day=date(2030, 12, 10), now=now
    )
    with pytest.raises(GameError, match="14"):
        vacations.vacation_book(
            user=user, first_day=date(2030, 12, 20), last_day=date(2030, 12, 24), now=now
        )
    # Across new year: 4 days in 2030 (10 + 4 = 14), 10 in 2031.
    vacations.vacation_book(
        user=user, first_day=date(2030, 12, 28), last_day=date(2031, 1, 10), now=now
    )
    assert vacations.vacation_days_used(user, 2030) == 14
    assert vacations.vacation_days_used(user, 2031) == 10


@pytest.mark.parametrize(
    ("first", "last", "message"),
    [
        (date(2030, 2, 28), date(2030, 3, 2), "past"),
        (date(2030, 3, 5), date(2030, 3, 4), "ends on or after"),
        (date(2030, 3, 3), date(2030, 3, 6), "overlaps"),
        (date(2031, 6, 1), date(2031, 6, 2), "a year ahead"),
    ],
)
def test_vacations_that_cannot_be_booked(first, last, message):
    user = UserFactory()
    now = datetime(2030, 3, 1, tzinfo=UTC)
    vacations.vacation_book(
        user=user, first_day=date(2030, 3, 5), last_day=date(2030, 3, 6), now=now
    )
    with pytest.raises(GameError, match=message):
        vacations.vacation_book(user=user, first_day=first, last_day=last, now=now)


def test_the_vacation_page_books_and_ends(client):
    user = UserFactory()
    client.force_login(user)
    today = timezone.now().date()
    page = client.get(reverse("vacation"))
    assert page.status_code == 200 and "14" in page.content.decode()
    response = client.post(
        reverse("vacation"),
        {"action": "book", "first_day": today + 2 * DAY, "last_day": today + 4 * DAY},
    )
    assert response.status_code == 302
    vacation = Vacation.objects.get(user=user)
    assert client.get(reverse("vacation")).context["left"] == 11
    bad = client.post(
        reverse("vacation"), {"action": "book", "first_day": today - DAY, "last_day": today}
    )
    assert bad.status_code == 400 and "past" in bad.content.decode()
    client.post(reverse("vacation"), {"action": "end", "vacation": vacation.pk})
    assert not Vacation.objects.filter(user=user).exists()
