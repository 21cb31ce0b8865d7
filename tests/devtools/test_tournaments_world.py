"""devtools/tournaments_world.py: tournaments mid-way, made in bulk, that the site reads as its
own: round 1 over, round 2 seated by Swiss seating without a repeated table, the pages whole."""

import pytest
from django.urls import reverse

from devtools.tournaments_world import seed_tournaments
from games.models import Game, TournamentTable
from games.selectors.tournaments import met_pairs, standings, tournament_seats
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seats, players", [(3, 31), (2, 9)])
def test_seeded_tournaments_are_mid_way_and_read_as_the_sites_own(client, seats, players):
    made = seed_tournaments(players=players, tournaments=2, seats_per_table=seats)
    assert len(made) == 2
    for tournament in made:
        games = Game.objects.filter(tournament_table__round__tournament=tournament)
        assert set(
            games.filter(tournament_table__round__number=1).values_list("status", flat=True)
        ) == {"finished"}
        assert set(
            games.filter(tournament_table__round__number=2).values_list("status", flat=True)
        ) == {"active"}
        seats_rows = tournament_seats(tournament.pk)
        per_game = {}
        for row in seats_rows:
            per_game.setdefault(row["game_id"], []).append(row["user_id"])
        pairs = [
            frozenset((a, b)) for users in per_game.values() for a in users for b in users if a < b
        ]
        assert len(pairs) == len(met_pairs(seats_rows)), "no pair met twice"
        lines = standings(tournament)
        assert len(lines) == players and lines[0].points >= lines[-1].points
        for number in (1, 2):
            seated = [
                u
                for t in TournamentTable.objects.filter(
                    round__tournament=tournament, round__number=number
                )
                for u in (
                    [t.bye_id] if t.bye_id else t.game.seats.values_list("user_id", flat=True)
                )
            ]
            assert sorted(seated) == sorted(line.user.pk for line in lines)
    client.force_login(UserFactory())
    assert client.get(reverse("tournament", args=[made[0].pk])).status_code == 200
    assert seed_tournaments(players=players, tournaments=1, seats_per_table=seats)  # users reused
