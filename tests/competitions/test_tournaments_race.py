"""A tournament's race, with real threads on PostgreSQL: the last two tables of a round ending
at the same moment (their tasks running at once) begin the next round once."""

import pytest

from games.competitions import tournaments
from games.models import Game, TournamentRound, TournamentTable
from tests.competitions.helpers import with_players
from tests.factories import finish_game
from tests.racing import race

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("last_round", [False, True])
def test_the_last_two_tables_ending_at_once_move_the_tournament_on_once(last_round):
    tournament = with_players(4, seats_per_table=2, rounds=1 if last_round else 2)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    games = list(Game.objects.filter(tournament_table__round__tournament=tournament))
    assert len(games) == 2
    for game in games:
        finish_game(game)
    results = race(2, lambda i: tournaments.tournament_game_finished(game_id=games[i].pk))
    assert sorted(results) == [False, True], results
    tournament.refresh_from_db()
    rounds = TournamentRound.objects.filter(tournament=tournament)
    if last_round:
        assert tournament.status == "finished" and rounds.count() == 1
    else:
        assert tournament.current_round == 2 and rounds.count() == 2
        assert TournamentTable.objects.filter(round__number=2).count() == 2


def test_players_joining_at_once_are_each_in_once():
    from tests.factories import UserFactory

    tournament = with_players(1)
    users = [UserFactory() for _ in range(6)]
    results = race(
        6, lambda i: tournaments.tournament_join(tournament_id=tournament.pk, user=users[i])
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert tournament.entries.count() == 7
