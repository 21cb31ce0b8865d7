"""Bot levels in the app: a level per empty seat at creation, the autopilot's level from the
player's settings, bot accounts by level (the old "easy" accounts became "medium"), bot pages
that say their level, and the hard bot moving through the task like the others."""

import importlib

import pytest
from django.apps import apps
from django.urls import reverse

from accounts.models import BotLevel, Preferences, User
from accounts.selectors import preferences_of
from accounts.services import bots_ensure, preferences_update
from games import services
from games.engine import LEVELS, Rules
from games.forms import BotFillForm, GameCreateForm
from games.models import Move, Seat
from tests.factories import GameFactory, UserFactory, play_one, started_game

pytestmark = pytest.mark.django_db


def kinds(game) -> dict[int, str]:
    return {seat.index: seat.user.bot_kind for seat in game.seats.select_related("user")}


def test_the_levels_offered_are_bot_level_and_the_engine_plays_each():
    assert BotLevel.values == list(LEVELS)
    offered = [value for value, _label in BotFillForm().fields["bot"].choices]
    seats = [value for value, _label in GameCreateForm().fields["seat_2"].choices]
    assert offered == seats[1:] == BotLevel.values


def test_the_waiting_room_offers_each_level_medium_first_chosen(client):
    host = UserFactory()
    client.force_login(host)
    page = client.get(reverse("game", args=[GameFactory(created_by=host).pk])).content.decode()
    assert '<select name="bot" id="fill-level">' in page
    assert '<option value="medium" selected>Medium</option>' in page
    assert '<option value="hard">Hard</option>' in page


def test_game_create_seats_a_bot_of_the_chosen_level_per_seat():
    host = UserFactory()
    game = services.game_create(
        creator=host, rules=Rules(), seat_count=4, seat_bots=["hard", None, "easy", "hard"]
    )
    assert kinds(game) == {0: "", 1: "hard", 3: "easy"}  # seat 2 waits; past the count: ignored
    services.game_fill_with_bots(game_id=game.pk, user=host, bot_kind="hard")
    assert kinds(game)[2] == "hard-2"  # the level's second seat: its sibling account


def test_the_new_game_form_takes_a_level_per_seat(client):
    host = UserFactory()
    client.force_login(host)
    page = client.get(reverse("game_new")).content.decode()
    assert 'name="seat_2"' in page and 'value="hard"' in page
    response = client.post(
        reverse("game_new"),
        {"seat_count": "3", "rounds": "classic", "seat_2": "medium", "seat_3": ""},
    )
    assert response.status_code == 302
    game = host.seats.get().game
    assert kinds(game) == {0: "", 1: "medium"}
    bad = client.post(reverse("game_new"), {"seat_count": "2", "rounds": "classic", "seat_2": "x"})
    assert bad.status_code == 400


def test_the_autopilot_plays_at_the_level_the_player_chose():
    a, b = UserFactory(), UserFactory()
    game = started_game([a, b])
    seat = Seat.objects.select_related("user").get(game=game, user=a)
    seat.autopilot = True
    assert services.bot_kind_of(seat) == "medium"
    preferences_update(user=a, autopilot_level="hard")
    seat = Seat.objects.select_related("user__preferences").get(pk=seat.pk)
    seat.autopilot = True
    assert services.bot_kind_of(seat) == "hard"


def test_the_settings_page_saves_the_autopilot_level(client):
    user = UserFactory()
    client.force_login(user)
    url = reverse("notification_preferences")
    assert 'name="autopilot_level"' in client.get(url).content.decode()
    assert client.post(url, {"turn_mail": "each", "autopilot_level": "easy"}).status_code == 302
    assert preferences_of(user).autopilot_level == "easy"
    assert client.post(url, {"turn_mail": "each"}).status_code == 302  # an older form
    assert preferences_of(user).autopilot_level == "easy"
    assert client.post(url, {"turn_mail": "each", "autopilot_level": "god"}).status_code == 400


def test_the_easy_bot_accounts_of_before_become_medium():
    """They played what is now the medium level (MediumBot): their games play on alike."""
    old = User.objects.create(
        username="bot-easy", display_name="Easy Bot", is_bot=True, bot_kind="easy"
    )
    sibling = User.objects.create(
        username="bot-easy-2", display_name="Easy Bot 2", is_bot=True, bot_kind="easy-2"
    )
    migration = importlib.import_module("accounts.migrations.0009_bot_levels")
    migration.easy_bots_become_medium(apps, None)
    old.refresh_from_db()
    sibling.refresh_from_db()
    assert (old.bot_kind, old.username, old.display_name) == ("medium", "bot-medium", "Medium Bot")
    assert (sibling.bot_kind, sibling.display_name) == ("medium-2", "Medium Bot 2")
    assert {bot.bot_kind for bot in bots_ensure()} == {"easy", "medium", "hard", "random"}


def test_a_bot_page_shows_its_level_and_record(client):
    client.force_login(UserFactory())
    human = UserFactory()
    started_game([human], seat_count=2, bots="hard")
    page = client.get(reverse("player", args=["bot-hard"])).content.decode()
    assert "level: Hard" in page and "in progress" in page
    page = client.get(reverse("player", args=["bot-random"])).content.decode()
    assert "(bot)" in page


def test_a_hard_bot_moves_through_the_task_on_its_turn(django_capture_on_commit_callbacks):
    human = UserFactory()
    game = started_game([human], seat_count=2, bots="hard")
    bot_seat = game.seats.get(user__is_bot=True).index
    for _ in range(6):
        if game.to_move_seat == bot_seat:
            assert services.bot_play_turn(game_id=game.pk, version=game.version)
            assert not services.bot_play_turn(game_id=game.pk, version=game.version - 1)
        else:
            play_one(game, {1 - bot_seat: human})
        game.refresh_from_db()
    assert Move.objects.filter(game=game, by_bot=True, seat=bot_seat).count() >= 2


def test_preferences_default_to_a_medium_autopilot():
    assert Preferences().autopilot_level == "medium"
