"""Leagues' races, with real threads on PostgreSQL: two beat sweeps at once start a season once
and create each wave's games once; a game's end and a sweep at once create the next wave once."""

import pytest
from django.utils import timezone

from games import services
from games.competitions import leagues
from games.models import Division, Game, LeagueFixture, LeagueSeason
from tests.factories import UserFactory
from tests.racing import race

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]


def due_league(members: int):
    people = [UserFactory() for _ in range(members)]
    league = leagues.league_create(
        user=people[0], name="Race", preset="classic", bots_fill=False, division_size=6
    )
    for user in people[1:]:
        leagues.league_join(league_id=league.pk, user=user)
    LeagueSeason.objects.filter(league=league).update(starts_at=timezone.now())
    return league


def test_two_sweeps_at_once_start_the_season_and_create_each_wave_once():
    due_league(12)
    results = race(2, lambda i: leagues.leagues_sweep())
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(r["started"] for r in results) == [0, 1]
    assert Division.objects.count() == 2
    assert Game.objects.count() == 6  # three tables of wave 1 in each division
    assert LeagueFixture.objects.filter(game__isnull=False, wave=1).count() == 6

    # Wave 1 over: two sweeps (and the game's own task) race for wave 2.
    for fixture in LeagueFixture.objects.filter(wave=1).select_related("game"):
        person = fixture.game.seats.first().user
        services.game_resign(game_id=fixture.game_id, user=person)
    division_ids = list(Division.objects.values_list("pk", flat=True))
    results = race(
        4,
        lambda i: (
            leagues.leagues_sweep()
            if i < 2
            else leagues.division_advance(division_id=division_ids[i - 2])
        ),
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert LeagueFixture.objects.filter(wave=2, game__isnull=False).count() == 6
    assert Game.objects.count() == 12
