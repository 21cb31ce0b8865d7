"""The leaderboard and a player's page (games/views/ratings.py, games/selectors/ratings.py)."""

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Rating
from tests.factories import UserFactory, started_game
from tests.views.helpers import rated_players

pytestmark = pytest.mark.django_db


def get(client, name, *args, **params):
    client.force_login(UserFactory())
    response = client.get(reverse(name, args=args), params)
    return response


def test_the_leaderboard_lists_players_with_enough_rated_games_strongest_first(client, settings):
    settings.LEADERBOARD_MIN_GAMES = 5
    strong, weak = rated_players(2)
    page = get(client, "leaderboard").content.decode()
    assert page.index(strong.display_name) < page.index(weak.display_name)
    assert "@example.com" not in page
    assert f'href="{reverse("player", args=[strong.username])}"' in page
    assert 'href="/leaderboard/"' in page  # the top bar


def test_newcomers_are_on_the_leaderboard_after_the_established_players_marked_provisional(
    client, settings
):
    settings.LEADERBOARD_MIN_GAMES = 5
    (newcomer,) = rated_players(1, games=4, start=10)  # the highest rating, 4 games
    alone = get(client, "leaderboard").content.decode()
    assert newcomer.display_name in alone and "Nobody has played" not in alone
    strong, weak = rated_players(2)
    page = get(client, "leaderboard").content.decode()
    rows = re.findall(r"<tr>.*?</tr>", page.split("<tbody>", 1)[1], re.S)
    assert [strong.display_name in rows[0], weak.display_name in rows[1]] == [True, True]
    assert newcomer.display_name in rows[2] and "provisional" in rows[2]
    assert '<td class="place">1</td>' in rows[0] and '<td class="place">2</td>' in rows[1]
    assert "provisional" not in rows[0] + rows[1]


def test_a_rating_chart_of_one_game_shows_its_point(client, settings):
    settings.RATING_MIN_ROUNDS = 0
    me, other = UserFactory(), UserFactory()
    game = started_game([me, other])
    services.game_resign(game_id=game.pk, user=other)
    page = get(client, "player", me.username).content.decode()
    svg = re.search(r'<svg class="rating-chart"[^>]*>.*?</svg>', page, re.S).group(0)
    assert "<circle" in svg
    rating = Rating.objects.get(user=me)
    assert svg.count(f">{round(1000 + 40 * rating.ordinal)}</text>") == 1  # not "high / low"


def test_the_leaderboard_comes_twenty_a_page_and_junk_pages_are_never_a_500(client):
    users = rated_players(23)
    first = get(client, "leaderboard").content.decode()
    assert users[19].display_name in first and users[20].display_name not in first
    assert "Page 1 of 2" in first
    second = get(client, "leaderboard", page="2").content.decode()
    assert users[20].display_name in second and users[0].display_name + "<" not in second
    for junk in ("abc", "-1", "0", "99999", "1.5", "\uff12", "9" * 400):
        assert get(client, "leaderboard", page=junk).status_code == 200


def test_a_player_page_shows_the_rating_history_as_a_chart_and_a_table(client, settings):
    settings.RATING_MIN_ROUNDS = 0
    me, other = UserFactory(), UserFactory()
    for loser in (other, me, other):
        game = started_game([me, other])
        services.game_resign(game_id=game.pk, user=loser)
    page = get(client, "player", me.username).content.decode()
    svg = re.search(r"<svg[^>]*>.*?</svg>", page, re.S).group(0)
    assert 'viewBox="0 0 600 200"' in svg and 'width="100%"' in svg
    assert f'<title id="rating-title">Rating history of {me.display_name}</title>' in svg
    assert "Over the latest 3 rated games" in svg
    assert len(re.search(r'points="([^"]*)"', svg).group(1).split()) == 3
    assert "style=" not in page.split("<main", 1)[-1] and "<script>" not in page
    history = page.split("Latest rated games", 1)[1]  # after the statistics (best game, replays)
    assert history.count(reverse("game", args=[game.pk])) == 1
    assert "Rating" in page and "after 3 rated games" in page
    assert "provisional</span>" in page and "It is provisional until 5 rated games." in page
    assert me.email not in page


def test_a_player_without_rated_games_and_an_unknown_player(client):
    me = UserFactory()
    page = get(client, "player", me.username).content.decode()
    assert "No rated games yet: a newcomer\u2019s rating is 1000, provisional until 5" in page
    assert get(client, "player", "nobody-at-all").status_code == 404
    assert get(client, "player", "\x00").status_code == 404
