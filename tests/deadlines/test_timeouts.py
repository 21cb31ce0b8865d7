"""A turn running out (games/deadlines/timeouts.py): autopilot, timeouts counted per time per
move, the drop at the game's limit, coming back; a new round's fresh clock."""

import random
from datetime import timedelta
from html import unescape

import pytest
from django.core import mail
from django.urls import resolve, reverse
from django.utils import timezone

from accounts.services import preferences_update
from games import services
from games.deadlines import timeouts
from games.deadlines.sweep import sweep
from games.engine import GameState, Rules, get_bot
from games.errors import GameError
from games.models import Game, Notification, Seat
from games.notifications import tokens
from games.presentation import card_info
from tests.deadlines.helpers import DAY, HOUR, changes, send_pending, timed_game, to_move
from tests.factories import UserFactory, play_one
from tests.notifications.helpers import html_of

pytestmark = pytest.mark.django_db


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
    assert services.bot_kind_of(seat) == "medium"


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
    game = services.game_create(
        creator=a, rules=Rules(), seat_count=2, time_per_move_days=1, start_when_full=False
    )
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


# The mails: "you timed out, a bot is playing for you" and "you were dropped".


def _sent_to(user, kind):
    return Notification.objects.filter(user=user, kind=kind, status="sent").count()


def test_a_timed_out_turn_sends_exactly_one_mail_however_often_the_sweep_runs():
    game, _users = timed_game(players=3, days=1)
    seat, deadline = to_move(game), game.deadline
    sweep(now=deadline + HOUR)
    sweep(now=deadline + 2 * HOUR)
    row = Notification.objects.get(kind="timed_out")
    assert (row.user, row.game, row.turn) == (seat.user, game, game.turn_version)
    send_pending("timed_out")
    send_pending("timed_out")
    assert _sent_to(seat.user, "timed_out") == 1 and len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.subject == f"Your time ran out in game #{game.pk}: a bot is playing for you"
    html, text = unescape(html_of(message)), message.body
    for body in (text, html):
        assert "2 more timeouts" in body and "I'm back" in body
        assert f"http://127.0.0.1:8000/games/{game.pk}/" in body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe_url = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert f"Unsubscribe from deadline reminders: {unsubscribe_url}" in text
    token = resolve(unsubscribe_url.removeprefix("http://127.0.0.1:8000")).kwargs["token"]
    assert tokens.unsubscribe_read(token) == (seat.user, "reminders")


def test_the_timed_out_mail_says_1_more_timeout_not_1_more_timeouts():
    game, _users = timed_game(players=3, days=1, max_timeouts=2)
    sweep(now=game.deadline + HOUR)
    send_pending("timed_out")
    assert "1 more timeout and" in mail.outbox[0].body


def test_the_drop_records_and_sends_one_mail_per_game():
    game, _users = timed_game(players=3, days=1, max_timeouts=2)
    seat, deadline = to_move(game), game.deadline
    sweep(now=deadline + HOUR)
    sweep(now=deadline + DAY + HOUR)
    sweep(now=deadline + 2 * DAY + HOUR)
    assert Notification.objects.filter(kind="dropped").count() == 1
    send_pending("dropped")
    send_pending("timed_out")  # superseded by the drop: not sent
    assert _sent_to(seat.user, "dropped") == 1 and _sent_to(seat.user, "timed_out") == 0
    (message,) = mail.outbox
    assert message.subject == f"You were dropped from game #{game.pk} after 2 timeouts"
    assert "ranked last" in message.body and "a bot keeps your seat" in message.body
    assert f"http://127.0.0.1:8000/games/{game.pk}/" in html_of(message)


@pytest.mark.parametrize(
    ("turned_off", "unsent", "sent"),
    [("reminders", "timed_out", "dropped"), ("game_over", "dropped", "timed_out")],
)
def test_the_timeout_mails_follow_the_preferences(turned_off, unsent, sent):
    game, _users = timed_game(players=3, days=1, max_timeouts=2)
    seat, deadline = to_move(game), game.deadline
    preferences_update(user=seat.user, **{turned_off: False})
    sweep(now=deadline + HOUR)
    send_pending("timed_out")
    sweep(now=deadline + DAY + HOUR)
    send_pending("dropped")
    assert not Notification.objects.filter(kind=unsent).exclude(reason="preference")
    assert _sent_to(seat.user, sent) == 1 and len(mail.outbox) == 1


def test_a_player_back_before_the_timed_out_mail_is_sent_gets_none():
    game, _users = timed_game(players=3, days=1)
    seat = to_move(game)
    sweep(now=game.deadline + HOUR)
    timeouts.seat_resume(game_id=game.pk, user=seat.user)
    send_pending("timed_out")
    row = Notification.objects.get(kind="timed_out")
    assert (row.status, row.reason) == ("skipped", "moved_on") and mail.outbox == []


@pytest.mark.hidden_info
def test_the_timeout_mails_show_no_card_of_anyones_hand():
    game, _users = timed_game(players=3, days=1, max_timeouts=2)
    state = GameState.from_dict(game.state)
    labels = {card_info(c).label for hand in state.hands for c in hand}
    labels |= {card_info(c).label for c in state.stock}
    deadline = game.deadline
    sweep(now=deadline + HOUR)
    send_pending("timed_out")
    sweep(now=deadline + DAY + HOUR)
    send_pending("dropped")
    assert [m.subject.split()[1] for m in mail.outbox] == ["time", "were"]
    for message in mail.outbox:
        for body in (message.body, html_of(message)):
            assert not any(label in body for label in labels)
