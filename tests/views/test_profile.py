"""The profile part of the settings page (display name, time zone, language), times shown in the
player's zone on pages and in mail, and the head-to-head record on the player page."""

import datetime

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import Preferences, User
from accounts.services import profile_update
from games.models import Game
from tests.factories import UserFactory, started_game
from tests.notifications.helpers import html_of, seat_to_move, send_all, two_people
from tests.views.helpers import finished_game, shared_game

pytestmark = pytest.mark.django_db

SETTINGS = reverse("notification_preferences")
# A Wednesday, 03:00 in UTC: 10:00 in Jakarta (UTC+7, no summer time).
DEADLINE = datetime.datetime(2030, 1, 2, 3, 0, tzinfo=datetime.UTC)


def test_the_settings_page_saves_the_profile(client):
    me = UserFactory()
    client.force_login(me)
    page = client.get(SETTINGS).content.decode()
    for language in ("English", "Bahasa Indonesia", "Čeština", "Íslenska", "Magyar", "Nederlands"):
        assert f">{language}</option>" in page
    assert '<option value="Asia/Jakarta">Asia/Jakarta</option>' in page
    form = {"section": "profile", "display_name": "Ana K.", "time_zone": "Asia/Jakarta"}
    assert client.post(SETTINGS, {**form, "language": "cs"}).status_code == 302
    me.refresh_from_db()
    assert (me.display_name, me.time_zone, me.language) == ("Ana K.", "Asia/Jakarta", "cs")
    # Mail preferences are untouched by the profile form, and the other way round.
    assert not Preferences.objects.filter(user=me).exists()


@pytest.mark.parametrize(
    "field, value",
    [
        ("time_zone", "Mars/Olympus_Mons"),
        ("time_zone", ""),
        ("language", "de"),
        ("display_name", "two\nlines"),
    ],
)
def test_the_settings_page_refuses_a_bad_profile(client, field, value):
    me = UserFactory(display_name="Before")
    client.force_login(me)
    form = {"section": "profile", "display_name": "After", "time_zone": "UTC", "language": "en"}
    response = client.post(SETTINGS, {**form, field: value})
    assert response.status_code == 400
    me.refresh_from_db()
    assert (me.display_name, me.time_zone, me.language) == ("Before", "UTC", "en")


def test_the_profile_service_validates_the_time_zone():
    me = UserFactory()
    with pytest.raises(Exception, match="time zone"):
        profile_update(user=me, time_zone="Nowhere/Atlantis")
    assert User.objects.get(pk=me.pk).time_zone == "UTC"


def jakarta_game(client):
    me = UserFactory(time_zone="Asia/Jakarta")
    game = started_game([me, UserFactory()], time_per_move_days=3)
    Game.objects.filter(pk=game.pk).update(deadline=DEADLINE)
    client.force_login(me)
    return me, game


def test_the_table_and_the_dashboard_show_the_deadline_in_the_players_zone(client):
    me, game = jakarta_game(client)
    for url in (reverse("game", args=[game.pk]), reverse("home")):
        page = client.get(url).content.decode()
        assert "Wed 2 Jan, 10:00 Asia/Jakarta" in page, url
        assert "03:00" not in page
    # Another player, in UTC, sees the same deadline as 03:00 UTC.
    other = game.seats.exclude(user=me).get().user
    client.force_login(other)
    assert "Wed 2 Jan, 03:00 UTC" in client.get(reverse("game", args=[game.pk])).content.decode()


def test_the_move_history_names_the_zone_of_its_times(client):
    _me, game = jakarta_game(client)
    page = client.get(reverse("game_history", args=[game.pk])).content.decode()
    assert "(Asia/Jakarta)" in page


def test_the_your_turn_mail_gives_the_deadline_in_the_recipients_zone():
    game, _users = two_people(time_per_move_days=3)
    to_move = seat_to_move(game).user
    User.objects.filter(pk=to_move.pk).update(time_zone="Asia/Jakarta")
    Game.objects.filter(pk=game.pk).update(deadline=DEADLINE)
    send_all()
    message = next(m for m in mail.outbox if m.to == [to_move.email])
    for body in (message.body, html_of(message)):
        assert "Your move is due by Wednesday 2 January, 10:00 (Asia/Jakarta)." in body
        assert "UTC" not in body
    # Rendering for one recipient leaves the process's zone as it was.
    assert timezone.get_current_timezone_name() == "UTC"


def test_a_zone_this_machine_no_longer_knows_falls_back_to_utc(client):
    me, game = jakarta_game(client)
    User.objects.filter(pk=me.pk).update(time_zone="Gone/Away")
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Wed 2 Jan, 03:00 UTC" in page


# -- head to head -----------------------------------------------------------------------------


def test_the_player_page_shows_the_viewers_record_against_the_player(client):
    me, her = UserFactory(display_name="Me"), UserFactory(display_name="Her")
    shared_game(me, her, first_rank=1, second_rank=2)
    shared_game(her, me, first_rank=1, second_rank=2, day=1)
    shared_game(her, me, first_rank=1, second_rank=2, day=2)
    shared_game(me, her, first_rank=1, second_rank=1, day=3)  # a shared place
    finished_game(me, day=4)  # without her
    client.force_login(me)
    page = client.get(reverse("player", args=[her.username])).content.decode()
    assert "You vs Her" in page
    assert "4 finished games together." in page
    assert '<th scope="row">You</th><td>1</td>' in page
    assert '<th scope="row">Her</th><td>2</td>' in page
    assert "1 game with the same place." in page
    # On my own page there is no "You vs me", only the form.
    own = client.get(reverse("player", args=[me.username])).content.decode()
    assert "You vs" not in own and 'name="vs"' in own


def test_the_head_to_head_compares_the_player_with_any_player_by_name(client):
    viewer, her, him = (
        UserFactory(),
        UserFactory(display_name="Her"),
        UserFactory(display_name="Him"),
    )
    shared_game(her, him, first_rank=2, second_rank=1)
    client.force_login(viewer)
    url = reverse("player", args=[her.username])
    page = client.get(url, {"vs": him.username}).content.decode()
    assert "Him vs Her" in page and "1 finished game together." in page
    assert '<th scope="row">Him</th><td>1</td>' in page
    assert '<th scope="row">Her</th><td>0</td>' in page
    missing = client.get(url, {"vs": "nobody-here"}).content.decode()
    assert "There is no other player called “nobody-here”." in missing
    Preferences.objects.create(user=him, profile_hidden=True)
    private = client.get(url, {"vs": him.username}).content.decode()
    assert "The profile of Him is private." in private and "Him vs Her" not in private
