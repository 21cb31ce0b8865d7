"""The factories' traits, and the seeds that make every test game replay."""

import hashlib

import pytest

from games.engine import Rules
from games.models import Game
from tests.factories import (
    GameFactory,
    LeagueFactory,
    MoveFactory,
    SeatFactory,
    TournamentFactory,
    UserFactory,
    started_game,
)
from tests.seeds import current_node, seed_for_test

pytestmark = pytest.mark.django_db


def test_an_open_game_seats_its_creator_only():
    game = GameFactory(seat_count=3)
    assert game.status == Game.Status.OPEN
    assert list(game.seats.values_list("user", flat=True)) == [game.created_by_id]


def test_started_fills_every_seat_and_deals():
    game = GameFactory(started=True, seat_count=3, time_per_move_days=2)
    assert game.status == Game.Status.ACTIVE and game.seats.count() == 3
    assert game.state is not None and game.deadline is not None


def test_resigned_leaves_the_last_person_resigned_and_a_duel_over():
    game = GameFactory(resigned=True)
    assert game.seats.get(index=1).resigned
    assert game.status == Game.Status.FINISHED and game.end_reason == Game.EndReason.RESIGNED


def test_finished_ends_the_game_as_completed_with_a_ranking():
    game = GameFactory(finished=True, seat_count=3)
    assert game.status == Game.Status.FINISHED and game.end_reason == Game.EndReason.COMPLETED
    assert sorted(game.seats.values_list("final_rank", flat=True)) == [1, 1, 1]


def test_players_and_bots_take_the_seats_they_are_given():
    alice, bob = UserFactory(), UserFactory()
    game = GameFactory(created_by=alice, players=[bob], seat_count=3, bots="easy", started=True)
    users = list(game.seats.order_by("index").select_related("user"))
    assert [s.user for s in users[:2]] == [alice, bob] and users[2].user.is_bot


def test_a_seat_and_a_move_are_made_through_the_services():
    seat = SeatFactory()
    assert seat.index == 1 and seat.game.status == Game.Status.OPEN
    move = MoveFactory()
    assert move.seq == 0 and move.game.version == 1


def test_games_are_seeded_from_the_node_id_and_the_same_on_every_run():
    users = [UserFactory(), UserFactory()]
    first = started_game(users)
    second = GameFactory(rules=Rules())
    assert first.seed != second.seed
    node = current_node()
    assert node.endswith("::test_games_are_seeded_from_the_node_id_and_the_same_on_every_run")
    expected = [hashlib.sha256(f"{node}#{n}".encode()).hexdigest()[:32] for n in range(3)]
    assert [first.seed, second.seed, seed_for_test()] == expected


def test_competitions_are_made_through_their_services():
    tournament = TournamentFactory(players=2, seats_per_table=2)
    assert tournament.status == "open" and tournament.entries.count() == 3
    assert tournament.entries.filter(user=tournament.created_by).exists()
    alice, bob = UserFactory(), UserFactory()
    league = LeagueFactory(members=[alice, bob])
    season = league.seasons.get()
    assert set(season.entries.values_list("user", flat=True)) == {alice.pk, bob.pk}
