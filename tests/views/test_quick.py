"""Quick play's pages: the form (on its page, the lobby and the dashboard), finding a game
without JavaScript, junk, cancelling."""

import pytest
from django.urls import reverse

from games.competitions import quick
from games.models import Game, Seek
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

FIND = {"seats": "2", "preset": "classic", "time_per_move_days": "3"}


@pytest.mark.parametrize("page", ["seek_new", "lobby", "home"])
def test_the_form_is_on_its_page_the_lobby_and_the_dashboard(client, page):
    client.force_login(UserFactory())
    html = client.get(reverse(page)).content.decode()
    assert "Find me a game" in html and f'action="{reverse("seek_new")}"' in html
    assert "Any number" in html and "Standard" in html and "Up and down" in html


def test_two_players_find_the_same_game_without_javascript_and_it_starts(client):
    alice, bob = UserFactory(), UserFactory()
    client.force_login(alice)
    first = client.post(reverse("seek_new"), FIND)
    game = Game.objects.get()
    assert first.status_code == 302 and first["Location"] == reverse("game", args=[game.pk])
    waiting = client.get(first["Location"]).content.decode()
    assert "Quick play" in waiting and ">host<" not in waiting
    assert "Fill empty seats with bots" not in waiting and "Cancel the game" not in waiting
    client.force_login(bob)
    second = client.post(reverse("seek_new"), FIND)
    assert second["Location"] == reverse("game", args=[game.pk])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_the_lobby_lists_an_open_quick_game_as_such(client):
    quick.seek_create(player=UserFactory(), seats=3, preset="classic", time_per_move_days=3)
    client.force_login(UserFactory())
    html = client.get(reverse("lobby")).content.decode()
    assert html.count("Quick play") >= 2  # the form's heading and the game's badge


@pytest.mark.parametrize(
    "data",
    [
        {**FIND, "seats": "5"},
        {**FIND, "seats": "x"},
        {**FIND, "preset": "forever"},
        {**FIND, "time_per_move_days": "4"},
        {**FIND, "time_per_move_days": "9" * 40},
        {},
    ],
)
def test_junk_is_a_400_that_changes_nothing(client, data):
    client.force_login(UserFactory())
    response = client.post(reverse("seek_new"), data)
    assert response.status_code == 400
    assert not Seek.objects.exists() and not Game.objects.exists()


def test_a_duplicate_seek_is_a_409_with_the_reason(client):
    client.force_login(UserFactory())
    client.post(reverse("seek_new"), FIND)
    response = client.post(reverse("seek_new"), FIND)
    assert response.status_code == 409
    assert "already looking for a game like this one" in response.content.decode()
    assert Seek.objects.count() == 1


def test_the_dashboard_shows_open_seeks_and_cancels_one(client):
    alice = UserFactory()
    client.force_login(alice)
    client.post(reverse("seek_new"), {**FIND, "seats": "any", "time_per_move_days": ""})
    seek = Seek.objects.get()
    html = client.get(reverse("home")).content.decode()
    assert "Any number of players" in html and "No time limit" in html
    assert reverse("seek_cancel", args=[seek.pk]) in html
    response = client.post(reverse("seek_cancel", args=[seek.pk]))
    assert response.status_code == 302
    seek.refresh_from_db()
    assert seek.status == Seek.Status.CANCELLED
    assert Game.objects.get().status == Game.Status.CANCELLED


def test_cancelling_someone_elses_seek_is_a_404_that_changes_nothing(client):
    seek = quick.seek_create(player=UserFactory(), seats=2, preset="classic", time_per_move_days=3)
    client.force_login(UserFactory())
    response = client.post(reverse("seek_cancel", args=[seek.pk]))
    assert response.status_code == 404
    seek.refresh_from_db()
    assert seek.status == Seek.Status.OPEN


def test_cancel_is_a_post(client):
    client.force_login(UserFactory())
    assert client.get(reverse("seek_cancel", args=[1])).status_code == 405
