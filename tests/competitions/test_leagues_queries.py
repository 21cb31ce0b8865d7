"""Leagues' query counts: a division's standings page, the beat sweep with nothing due, and a
wave's creation cost the same for a small league as for a bigger one (a wave: the same cost for
each game it creates, whatever the number of members and divisions)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from devtools.leagues_world import seed_leagues
from games import services
from games.competitions import leagues
from games.models import Division, Game, LeagueFixture
from tests.factories import UserFactory

pytestmark = [pytest.mark.queries, pytest.mark.django_db]


def queries(function) -> int:
    with CaptureQueriesContext(connection) as captured:
        function()
    return len(captured.captured_queries)


def finish_first_wave(division):
    for fixture in division.fixtures.filter(wave=1).select_related("game"):
        person = fixture.game.seats.first().user
        services.game_resign(game_id=fixture.game_id, user=person)


def standings_queries(client, division) -> int:
    season = division.season
    url = reverse("league_division", args=[season.league_id, season.number, division.level])
    client.get(url)  # warm the session
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


def test_the_standings_page_costs_the_same_for_4_members_as_for_8(client):
    [small] = seed_leagues(players=4, leagues_count=1, division_size=4, prefix="small")
    [big] = seed_leagues(players=16, leagues_count=1, division_size=8, prefix="big")
    client.force_login(UserFactory())
    counts = []
    for league in (small, big):
        division = Division.objects.get(season__league=league, level=1)
        finish_first_wave(division)
        counts.append(standings_queries(client, division))
    # The session and user, the bar, the division, its entries, fixtures, seats, names.
    assert counts[0] == counts[1] == 9, counts


def test_the_sweep_with_nothing_due_costs_the_same_for_one_league_as_for_five():
    seed_leagues(players=6, leagues_count=1, prefix="one")
    one = queries(leagues.leagues_sweep)
    seed_leagues(players=60, leagues_count=5, prefix="five")
    five = queries(leagues.leagues_sweep)
    assert one == five == 2, (one, five)


def test_a_wave_costs_the_same_for_each_game_whatever_the_league():
    """Wave 2 of divisions of 4, 6 and 8 members (2, 3 and 4 games): the same fixed part, the
    same cost per game."""
    costs = []
    for size in (4, 6, 8):
        [league] = seed_leagues(
            players=size, leagues_count=1, division_size=size, prefix=f"w{size}"
        )
        division = Division.objects.get(season__league=league)
        finish_first_wave(division)
        # The game's end queued the advance; here it runs, as the worker would.
        cost = queries(lambda division=division: leagues.division_advance(division_id=division.pk))
        assert (
            LeagueFixture.objects.filter(division=division, wave=2, game__isnull=False).count()
            == size // 2
        )
        costs.append(cost)
    assert costs[1] - costs[0] == costs[2] - costs[1], costs
    assert Game.objects.filter(status="active").count() == 9


def page_queries(client, name, *args) -> int:
    url = reverse(name, args=args)
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


def test_the_leagues_list_and_a_league_page_cost_the_same_for_one_league_as_for_five(client):
    client.force_login(UserFactory())
    [first] = seed_leagues(players=6, leagues_count=1, prefix="one")
    small = (page_queries(client, "leagues"), page_queries(client, "league", first.pk))
    made = seed_leagues(players=60, leagues_count=5, division_size=4, prefix="five")
    large = (page_queries(client, "leagues"), page_queries(client, "league", made[0].pk))
    # The list: the session's user, the bar, the count, a page of leagues with their current
    # seasons. A league: its season, divisions, the viewer's entry, the member count, its past
    # seasons.
    assert small == large == (4, 8), (small, large)
