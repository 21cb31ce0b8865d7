"""Quick play's race, with real threads on PostgreSQL: players seeking at the same moment end in
full, started games, never in two half-empty ones."""

import pytest

from games.competitions import quick
from games.models import Game, Seek
from tests.factories import UserFactory
from tests.racing import race

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("seats, players", [(2, 6), (3, 6)])
def test_players_seeking_at_once_fill_whole_games(seats, players):
    users = [UserFactory() for _ in range(players)]
    results = race(
        players,
        lambda i: quick.seek_create(
            player=users[i], seats=seats, preset="classic", time_per_move_days=3
        ),
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    games = Game.objects.filter(quick=True)
    assert games.count() == players // seats
    assert set(games.values_list("status", flat=True)) == {Game.Status.ACTIVE}
    assert all(g.seats.count() == seats for g in games)
    assert Seek.objects.filter(status=Seek.Status.MATCHED).count() == players
