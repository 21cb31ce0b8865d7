"""Tournaments through the services: opening, joining and leaving until the start, the start
(by the host, or by the sweep at its time, cancelled if too few joined), Swiss rounds, byes and
bots filling short tables, the next round begun when the last table ends, the final standing and
the winner, and the mail of each player's place."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.competitions import tournaments
from games.errors import GameError
from games.models import (
    Game,
    Notification,
    Rating,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from games.selectors.tournaments import met_pairs, standings, tournament_seats
from tests.competitions.helpers import finish_round, open_tournament, round_tables, with_players
from tests.factories import UserFactory, finish_game

pytestmark = pytest.mark.django_db


def test_a_12_player_tournament_pairs_three_rounds_and_ends():
    tournament = with_players(12)
    people = set(tournament.entries.values_list("user_id", flat=True))
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.PLAYING and tournament.current_round == 1
    for number in (1, 2, 3):
        tables = round_tables(tournament, number)
        assert [len(t) for t in tables] == [3, 3, 3, 3]
        assert sorted(u for t in tables for u in t) == sorted(people)
        assert tournament.current_round == number
        finish_round(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    assert TournamentRound.objects.filter(tournament=tournament).count() == 3
    lines = standings(tournament)
    assert tournament.winner == lines[0].user
    places = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list("user_id", "place")
    )
    assert places == {line.user.pk: line.place for line in lines}
    assert sum(line.points for line in lines) == 3 * 4 * (2 + 4)  # halves: 2+1+0 a table
    mails = Notification.objects.filter(kind=Notification.Kind.TOURNAMENT)
    assert set(mails.values_list("user_id", flat=True)) == people


def test_rounds_avoid_repeating_a_table_where_they_can():
    tournament = with_players(9)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    finish_round(tournament)
    finish_round(tournament)
    # 9 players at tables of 3 can play 4 rounds without meeting twice; 2 are no trouble.
    seats = [row for row in tournament_seats(tournament.pk)]
    pairs = [
        frozenset((a["user_id"], b["user_id"]))
        for a in seats
        for b in seats
        if a["game_id"] == b["game_id"] and a["user_id"] < b["user_id"]
    ]
    assert len(pairs) == len(set(pairs)) == len(met_pairs(seats))


def test_round_one_seats_by_rating_a_newcomer_as_1000():
    tournament = with_players(6)
    entries = list(tournament.entries.order_by("pk"))
    for entry, ordinal in zip(entries, (5.0, -5.0, 3.0, -1.0, 8.0), strict=False):
        Rating.objects.create(user=entry.user, mu=ordinal + 3, sigma=1, ordinal=ordinal)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    ratings = dict(tournament.entries.values_list("user_id", "rating"))
    assert ratings[entries[5].user_id] == 1000 and ratings[entries[4].user_id] == 1320
    # 1320, 1200, 1120 at the first table; 1000 (the newcomer), 960, 800 at the second.
    top = sorted(e.user_id for e in (entries[4], entries[0], entries[2]))
    assert round_tables(tournament, 1) == [
        top,
        sorted(e.user_id for e in (entries[5], entries[3], entries[1])),
    ]


def test_tables_of_two_with_an_odd_count_give_a_bye_worth_a_win():
    tournament = with_players(5, seats_per_table=2)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    byes = []
    for number in (1, 2, 3):
        tables = round_tables(tournament, number)
        assert sorted(len(t) for t in tables) == [1, 2, 2]
        byes.append(tables[-1][0])
        finish_round(tournament)
    assert len(set(byes)) == 3, "no one gets a second bye while another has had none"
    lines = {line.user.pk: line for line in standings(tournament)}
    assert all(lines[bye].byes == 1 for bye in byes)
    assert tournament.status == Tournament.Status.FINISHED


def test_bots_fill_short_tables_when_the_host_allows():
    tournament = with_players(5, seats_per_table=2, bot_level="easy", rounds=1)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    tables = TournamentTable.objects.filter(round__tournament=tournament)
    assert tables.count() == 3 and not tables.filter(bye__isnull=False).exists()
    bots = [s for t in tables for s in t.game.seats.select_related("user") if s.user.is_bot]
    assert len(bots) == 1 and bots[0].user.bot_kind == "easy"
    finish_round(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    assert not tournament.entries.filter(user__is_bot=True).exists()
    assert {line.user.is_bot for line in standings(tournament)} == {False}


def test_with_bots_filling_tables_two_people_may_start_a_tournament_of_tables_of_four():
    tournament = with_players(2, seats_per_table=4, bot_level="easy", rounds=1)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    (table,) = TournamentTable.objects.filter(round__tournament=tournament)
    people = [s for s in table.game.seats.select_related("user") if not s.user.is_bot]
    assert table.game.seat_count == 4 and len(people) == 2


def test_three_of_tables_of_four_sit_together_and_not_at_a_table_of_one():
    tournament = with_players(5, seats_per_table=4, rounds=1)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    assert sorted(len(t) for t in round_tables(tournament, 1)) == [2, 3]


def test_join_and_leave_until_the_start_only():
    tournament = open_tournament()
    player = UserFactory()
    tournaments.tournament_join(tournament_id=tournament.pk, user=player)
    with pytest.raises(GameError, match="already in"):
        tournaments.tournament_join(tournament_id=tournament.pk, user=player)
    tournaments.tournament_leave(tournament_id=tournament.pk, user=player)
    with pytest.raises(GameError, match="not in"):
        tournaments.tournament_leave(tournament_id=tournament.pk, user=player)
    tournaments.tournament_join(tournament_id=tournament.pk, user=player)
    tournaments.tournament_join(tournament_id=tournament.pk, user=UserFactory())
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    with pytest.raises(GameError, match="already started") as error:
        tournaments.tournament_leave(tournament_id=tournament.pk, user=player)
    assert error.value.status == 409
    with pytest.raises(GameError, match="already started"):
        tournaments.tournament_join(tournament_id=tournament.pk, user=UserFactory())


def test_only_the_host_starts_it_and_only_with_enough_players():
    tournament = with_players(2)
    with pytest.raises(GameError, match="Only the host") as error:
        tournaments.tournament_start(tournament_id=tournament.pk, user=UserFactory())
    assert error.value.status == 403
    with pytest.raises(GameError, match="At least 3"):
        tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)


def test_the_sweep_starts_what_is_due_and_cancels_what_is_too_small():
    due = with_players(3)
    small = with_players(2)
    later = with_players(3)
    Tournament.objects.filter(pk__in=[due.pk, small.pk]).update(starts_at=timezone.now())
    assert tournaments.tournaments_sweep() == {"started": 1, "cancelled": 1, "advanced": 0}
    statuses = dict(Tournament.objects.values_list("pk", "status"))
    assert statuses == {due.pk: "playing", small.pk: "cancelled", later.pk: "open"}


def test_the_sweep_takes_up_a_round_whose_task_was_lost():
    tournament = with_players(3, rounds=2)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    for game in Game.objects.filter(tournament_table__round__tournament=tournament):
        finish_game(game)  # and no task runs
    assert tournaments.tournaments_sweep() == {"started": 0, "cancelled": 0, "advanced": 1}
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    assert tournaments.tournaments_sweep() == {"started": 0, "cancelled": 0, "advanced": 0}


def test_a_round_checked_twice_moves_on_once():
    tournament = with_players(3, rounds=2)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    game = Game.objects.get(tournament_table__round__tournament=tournament)
    assert not tournaments.tournament_game_finished(game_id=game.pk)
    finish_game(game)
    assert tournaments.tournament_game_finished(game_id=game.pk)
    assert not tournaments.tournament_game_finished(game_id=game.pk)
    assert TournamentRound.objects.filter(tournament=tournament).count() == 2


@pytest.mark.parametrize(
    "change, message",
    [
        ({"name": "  "}, "name"),
        ({"preset": "nope"}, "rules"),
        ({"seats_per_table": 5}, "tables of"),
        ({"rounds": 10}, "rounds"),
        ({"time_per_move_days": 4}, "time per move"),
        ({"bot_level": "wizard"}, "no such bot"),
        ({"starts_at": timezone.now() - timedelta(minutes=1)}, "start"),
    ],
)
def test_a_tournament_needs_sound_settings(change, message):
    with pytest.raises(GameError, match=message):
        open_tournament(**change)


def test_no_such_tournament_is_a_404():
    with pytest.raises(GameError) as error:
        tournaments.tournament_join(tournament_id=999_999, user=UserFactory())
    assert error.value.status == 404


def test_a_host_has_at_most_five_open_at_once():
    host = UserFactory()
    for _ in range(5):
        open_tournament(host)
    with pytest.raises(GameError, match="already host 5") as error:
        open_tournament(host)
    assert error.value.status == 409
