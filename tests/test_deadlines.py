"""Deadlines: the sweep, autopilot, drops, reminders, vacations. Time is passed in (`now=`), so a
test can stand days after a turn began."""

import random
import threading
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation
from accounts.services import preferences_update
from games import services
from games.clock import clock_end
from games.deadlines import timeouts, vacations
from games.deadlines.sweep import sweep
from games.engine import GameState, Rules, get_bot
from games.errors import GameError
from games.models import Game, Notification, Seat
from games.notifications import outbox
from games.selectors import pauses
from tests.factories import UserFactory, play_one, started_game

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


def at(day: int, hour: int = 0) -> datetime:
    return datetime(2030, 1, day, hour, tzinfo=UTC)


def timed_game(players=2, days=1, **options):
    users = [UserFactory() for _ in range(players)]
    game = started_game(users, time_per_move_days=days, **options)
    return game, users


def to_move(game) -> Seat:
    game.refresh_from_db()
    return game.seats.select_related("user").get(index=game.to_move_seat)


def changes(report) -> tuple:
    """What a sweep changed in the games (queuing a lost task again changes nothing)."""
    return (report.timed_out, report.timeouts, report.dropped, report.reminders)


def send_pending(kind="reminder"):
    """Run the send task's service for every pending mail of `kind`, as the worker would."""
    pending = Notification.objects.filter(status="pending", kind=kind)
    for pk in pending.values_list("pk", flat=True):
        outbox.notification_send(notification_id=pk)


# -- clocks ----------------------------------------------------------------------------------


def test_the_clock_stands_still_during_pauses():
    start = at(1)
    assert clock_end(start, DAY, []) == at(2)
    assert clock_end(start, DAY, [(at(1, 6), at(1, 10))]) == at(2, 4)
    # A pause under way when the clock starts counts from the start only.
    assert clock_end(start, DAY, [(at(1) - DAY, at(1, 5))]) == at(2, 5)
    # A pause that begins after the time is up changes nothing …
    assert clock_end(start, DAY, [(at(3), at(4))]) == at(2)
    # … unless an earlier pause pushed the end past its beginning.
    assert clock_end(start, DAY, [(at(1, 12), at(2)), (at(2, 6), at(2, 8))]) == at(2, 14)


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


# -- timeouts and autopilot ------------------------------------------------------------------


def test_an_overdue_turn_goes_on_autopilot_once_and_the_bot_plays_it():
    game, _users = timed_game(players=3, days=1)
    seat, deadline, version = to_move(game), game.deadline, game.version
    assert sweep(now=deadline - HOUR).timed_out == 0
    report = sweep(now=deadline + HOUR)
    assert (report.timed_out, report.dropped) == (1, 0)
    seat.refresh_from_db()
    assert seat.autopilot and seat.timeouts == 1 and seat.autopilot_since == deadline
    assert changes(sweep(now=deadline + HOUR)) == (0, 0, 0, 0)
    seat.refresh_from_db()
    assert seat.timeouts == 1
    # The bot move queued on commit plays the autopilot seat's turn, once.
    assert services.bot_play_turn(game_id=game.pk, version=version)
    assert not services.bot_play_turn(game_id=game.pk, version=version)
    game.refresh_from_db()
    assert game.version == version + 1 and game.moves.get(seq=version).by_bot


def test_an_absent_player_is_dropped_after_max_timeouts_counted_per_time_per_move():
    game, _users = timed_game(players=3, days=1)
    seat, deadline = to_move(game), game.deadline
    sweep(now=deadline + HOUR)
    sweep(now=deadline + DAY - HOUR)
    seat.refresh_from_db()
    assert seat.timeouts == 1
    sweep(now=deadline + DAY + HOUR)
    seat.refresh_from_db()
    assert seat.timeouts == 2 and not seat.dropped
    report = sweep(now=deadline + 2 * DAY + HOUR)
    seat.refresh_from_db()
    assert report.dropped == 1
    assert seat.timeouts == 3 and seat.dropped and seat.resigned and not seat.autopilot
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # two people are still playing; a bot keeps the seat
    assert services.bot_kind_of(seat) == "easy"


def test_a_sweep_that_was_down_for_days_catches_up_exactly_and_only_once():
    game, _users = timed_game(players=3, days=1, max_timeouts=3)
    seat, deadline = to_move(game), game.deadline
    report = sweep(now=deadline + 10 * DAY)
    assert (report.timed_out, report.timeouts, report.dropped) == (1, 2, 1)
    seat.refresh_from_db()
    assert seat.dropped and seat.timeouts == 3
    assert changes(sweep(now=deadline + 10 * DAY)) == (0, 0, 0, 0)


def test_dropping_one_of_two_people_ends_the_game_with_them_ranked_last():
    game, users = timed_game(players=2, days=1, max_timeouts=1)
    seat = to_move(game)
    sweep(now=game.deadline + HOUR)
    game.refresh_from_db()
    seat.refresh_from_db()
    assert game.status == Game.Status.FINISHED and seat.dropped
    assert seat.final_rank == 2
    over = Notification.objects.filter(game=game, kind="game_over")
    assert sorted(over.values_list("user_id", flat=True)) == sorted(u.pk for u in users)


def test_coming_back_ends_autopilot_and_forgives_the_timeouts():
    game, _users = timed_game(players=3, days=1)
    seat = to_move(game)
    sweep(now=game.deadline + HOUR)
    timeouts.seat_resume(game_id=game.pk, user=seat.user)
    seat.refresh_from_db()
    assert (seat.autopilot, seat.timeouts, seat.autopilot_since) == (False, 0, None)
    # Still their turn (the bot had not moved yet): the clock starts again.
    game.refresh_from_db()
    assert game.deadline > timezone.now() + DAY - HOUR
    assert not services.bot_play_turn(game_id=game.pk, version=game.version)


def test_the_im_back_button_is_on_the_table_of_a_player_on_autopilot(client):
    game, _users = timed_game(players=3, days=1)
    seat = to_move(game)
    Seat.objects.filter(pk=seat.pk).update(
        autopilot=True, timeouts=1, autopilot_since=game.deadline
    )
    client.force_login(seat.user)
    page = client.get(reverse("game", kwargs={"game_id": game.pk})).content.decode()
    assert reverse("seat_resume", kwargs={"game_id": game.pk}) in page
    response = client.post(reverse("seat_resume", kwargs={"game_id": game.pk}))
    assert response.status_code == 302
    seat.refresh_from_db()
    assert not seat.autopilot


def test_a_dropped_player_cannot_come_back():
    game, _users = timed_game(players=3, days=1, max_timeouts=1)
    seat = to_move(game)
    sweep(now=game.deadline + HOUR)
    with pytest.raises(GameError, match="dropped"):
        timeouts.seat_resume(game_id=game.pk, user=seat.user)


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


# -- vacations -------------------------------------------------------------------------------


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


# -- reminders -------------------------------------------------------------------------------


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


# -- two sweeps at once ----------------------------------------------------------------------


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


def test_the_create_form_sets_the_timeouts_before_a_drop(client):
    client.force_login(UserFactory())
    data = {"seat_count": "2", "time_per_move_days": "1", "rounds": "classic"}
    client.post(reverse("game_new"), {**data, "max_timeouts": "5"})
    client.post(reverse("game_new"), data)
    assert list(Game.objects.order_by("pk").values_list("max_timeouts", flat=True)) == [5, 3]
    assert client.post(reverse("game_new"), {**data, "max_timeouts": "11"}).status_code == 400
    with pytest.raises(GameError):
        services.game_create(creator=UserFactory(), rules=Rules(), seat_count=2, max_timeouts=0)


def test_a_new_round_is_a_new_turn_with_a_fresh_clock_even_for_the_same_seat():
    a, b = UserFactory(), UserFactory()
    game = services.game_create(creator=a, rules=Rules(), seat_count=2, time_per_move_days=1)
    services.game_join(game_id=game.pk, user=b)
    Game.objects.filter(pk=game.pk).update(seed="fresh-clock")
    services.game_start(game_id=game.pk, user=a)
    game.refresh_from_db()
    by_seat = {s.index: s.user for s in game.seats.all()}
    bot, rng = get_bot("easy"), random.Random(7)
    same_seat_round_changes = 0
    while same_seat_round_changes < 2 and game.status == Game.Status.ACTIVE:
        state = GameState.from_dict(game.state)
        before, rounds = state.to_move, len(state.round_results)
        action = bot.choose(state.view(before), rng)
        play_one(game, by_seat, choose=lambda _legal, action=action: action)
        if len(GameState.from_dict(game.state).round_results) > rounds:
            same_seat_round_changes += game.to_move_seat == before
            assert game.turn_version == game.version
            assert game.deadline == game.turn_started_at + DAY
            assert game.turn_started_at > timezone.now() - timedelta(seconds=5)
    assert same_seat_round_changes == 2


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
