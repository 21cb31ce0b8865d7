"""A player's statistics and the privacy of their page (games/selectors/player_stats.py,
games/views/ratings.py, accounts' Preferences.profile_hidden)."""

import re

import pytest
from django.urls import reverse

from accounts.models import Preferences, User
from games import services
from games.models import RoundScore
from games.selectors.player_stats import _streaks
from tests.factories import UserFactory, started_game
from tests.rated_games import play_rounds
from tests.views.helpers import finished_game

pytestmark = pytest.mark.django_db


def page_of(client, shown, viewer=None):
    client.force_login(viewer or UserFactory())
    return client.get(reverse("player", args=[shown.username]))


def test_the_streaks_count_wins_in_finish_order():
    assert _streaks([]) == (0, 0)
    assert _streaks([True, True, True, False, True]) == (1, 3)
    assert _streaks([False, True, True]) == (2, 2)
    assert _streaks([True, False]) == (0, 1)


def test_a_player_page_shows_their_statistics(client):
    me = UserFactory()
    lost = finished_game(me, rank=2, total=30, day=1, rounds=[(3, 10, False), (4, 20, False)])
    won = finished_game(me, rank=1, total=5, day=2, rounds=[(3, 0, True)])
    won3 = finished_game(me, players=3, rank=1, total=12, day=3)
    started_game([me, UserFactory()])
    page = page_of(client, me).content.decode()
    assert "3 games finished, 2 won (67% won), 1 in progress." in page
    assert "Current winning streak: 2 games. Longest: 2 games." in page
    assert "Average penalty 10.0 over 3 rounds." in page
    assert "Went out first 1 time (33% of rounds)." in page
    assert (
        f'Best game: <a href="{reverse("game", args=[won.pk])}">Game #{won.pk}</a>, 5 points.'
        in page
    )
    assert (
        f'Worst game: <a href="{reverse("game", args=[lost.pk])}">Game #{lost.pk}</a>, 30 points.'
        in page
    )
    # By number of players: two 2-player games (average 17.5 points, place 1.50), one 3-player.
    assert "<tr><td>2</td><td>2</td><td>17.5</td><td>1.50</td></tr>" in page
    assert "<tr><td>3</td><td>1</td><td>12.0</td><td>1.00</td></tr>" in page
    # The bar chart: one bar per hand size played, best and worst named in its description.
    svg = re.search(r'<svg class="penalty-chart"[^>]*>.*?</svg>', page, re.S).group(0)
    assert 'viewBox="0 0 600 220"' in svg and 'width="100%"' in svg
    assert svg.count("<rect") == 2
    assert (
        "Best with 3 cards (average penalty 5.0), worst with 4 cards (average penalty 20.0)" in svg
    )
    assert "<tr><td>4</td><td>1</td><td>20.0</td></tr>" in page  # the chart's table
    # Recent games link to their replays, newest first.
    replays = [reverse("game_replay", args=[g.pk]) for g in (won3, won, lost)]
    positions = [page.index(f'href="{url}"') for url in replays]
    assert positions == sorted(positions)
    assert "style=" not in page.split("<main", 1)[-1] and "<script>" not in page
    # The rating part stays.
    assert "rated game" in page


def test_a_newcomer_has_no_statistics_yet(client):
    page = page_of(client, UserFactory()).content.decode()
    assert "No finished games yet." in page
    assert "penalty-chart" not in page and "Recent games" not in page


def test_a_single_game_is_the_best_but_not_also_the_worst(client):
    me = UserFactory()
    finished_game(me, total=1, rounds=[(3, 1, False)])
    page = page_of(client, me).content.decode()
    assert "1 game finished, 1 won (100% won)." in page
    assert "Best game:" in page and "Worst game:" not in page
    assert "Average penalty 1.0 over 1 round." in page and "Went out first 0 times" in page


def test_practice_and_unrated_games_stay_out_of_the_records(client):
    me = UserFactory()
    finished_game(me, rank=2, total=30, day=1, rounds=[(3, 30, False)])
    finished_game(me, rank=1, total=4, day=2, rounds=[(3, 4, False)], rated=False)
    practice = services.game_practice_create(user=me)
    services.game_resign(game_id=practice.pk, user=me)  # in round 1: 0 points, unrated
    page = page_of(client, me).content.decode()
    assert "1 game finished, 0 won (0% won)." in page
    assert "Best game:" in page and ", 30 points." in page
    assert " 0 points" not in page and " 4 points" not in page
    assert "Average penalty 30.0 over 1 round." in page
    assert "2 unrated games finished, not counted here." in page


@pytest.mark.slow
def test_the_round_statistics_count_the_same_games_as_games_finished(client):
    me = UserFactory()
    finished_game(me, total=12, rounds=[(3, 12, False)])
    playing = started_game([me, UserFactory()])
    play_rounds(playing, 1)
    assert RoundScore.objects.filter(game=playing, user=me).exists()
    page = page_of(client, me).content.decode()
    assert "1 game finished, 1 won (100% won), 1 in progress." in page
    assert "Average penalty 12.0 over 1 round." in page


def hide(user):
    Preferences.objects.update_or_create(user=user, defaults={"profile_hidden": True})


def test_a_hidden_profile_shows_only_to_its_player_and_to_those_who_played_with_them(client):
    me, partner, stranger = UserFactory(), UserFactory(), UserFactory()
    finished_game(me)
    started_game([partner, me])
    hide(me)
    refused = page_of(client, me, stranger)
    assert refused.status_code == 403
    assert "This profile is private." in refused.content.decode()
    assert "games finished" not in refused.content.decode()
    assert page_of(client, me, me).status_code == 200
    assert page_of(client, me, partner).status_code == 200
    # A public profile shows to anyone.
    assert page_of(client, partner, stranger).status_code == 200


def test_the_settings_page_hides_the_profile(client):
    me = UserFactory()
    client.force_login(me)
    url = reverse("notification_preferences")
    assert 'name="profile_hidden"' in client.get(url).content.decode()
    form = {"turn_mail": "each", "reminders": "on", "profile_hidden": "on"}
    assert client.post(url, form).status_code == 302
    assert Preferences.objects.get(user=me).profile_hidden
    assert page_of(client, me).status_code == 403


def test_no_page_shows_another_players_email(client, settings):
    settings.RATING_MIN_ROUNDS = 0
    settings.LEADERBOARD_MIN_GAMES = 1
    viewer, other = UserFactory(), UserFactory()
    finished_game(other, rounds=[(3, 4, False)])
    game = started_game([viewer, other])
    client.force_login(viewer)
    pages = [
        client.get(reverse("player", args=[other.username])),
        client.get(reverse("leaderboard")),
        client.get(reverse("home")),
        client.get(reverse("game", args=[game.pk])),
    ]
    emails = list(User.objects.exclude(pk=viewer.pk).values_list("email", flat=True))
    assert len(emails) >= 2 and all("@" in email for email in emails)
    for response in pages:
        assert response.status_code == 200
        html = response.content.decode()
        assert not [email for email in emails if email in html], response.request["PATH_INFO"]
    # The game table's player boxes link to each player's page.
    table = pages[3].content.decode()
    assert f'href="{reverse("player", args=[other.username])}"' in table


def test_a_player_page_counts_the_games_abandoned_against_those_played_to_the_end(client):
    """A player dropped by the clock (the sweep, at the game's limit of timeouts) has abandoned
    that game; the page says how many they played to the end beside it."""
    from games.deadlines.sweep import sweep
    from tests.deadlines.helpers import HOUR, timed_game, to_move

    game, _users = timed_game(players=2, days=1, max_timeouts=1)
    seat = to_move(game)
    sweep(now=game.deadline + HOUR)
    seat.refresh_from_db()
    assert seat.dropped
    absent, other = seat.user, next(u for u in _users if u != seat.user)
    finished_game(absent, day=1)
    absent_page = page_of(client, absent).content.decode()
    assert "Played to the end: 1 · abandoned (dropped after running out of time): 1" in absent_page
    other_page = page_of(client, other).content.decode()
    assert "Played to the end: 1 · abandoned (dropped after running out of time): 0" in other_page
