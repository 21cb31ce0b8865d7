"""Rebuilding every stored statistic from the move logs (games/results.py, `rebuild_stats`)
finds what the services stored as the games went."""

import io

import pytest
from django.core.management import call_command

from games import services
from games.models import RoundScore, Seat
from tests.factories import UserFactory, started_game
from tests.rated_games import play_rounds, snapshot, three_way

pytestmark = pytest.mark.django_db


def stored():
    rounds = list(
        RoundScore.objects.order_by("game", "round_index", "seat").values_list(
            "game", "round_index", "seat", "user", "hand_size", "wild_rank", "penalty",
            "went_out", "melds", "deadwood",
        )
    )  # fmt: skip
    seats = set(
        Seat.objects.values_list("pk", "final_rank", "final_total", "finished_at", "players")
    )
    return rounds, seats, snapshot()


@pytest.mark.slow
def test_rebuild_stats_finds_the_numbers_stored_as_the_games_went(settings):
    settings.RATING_MIN_ROUNDS = 2
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    whole = started_game([a, b])
    play_rounds(whole, 99)  # every round: completed
    partly = started_game([b, c, a])
    play_rounds(partly, 3)
    services.game_resign(game_id=partly.pk, user=c)
    services.game_resign(game_id=partly.pk, user=a)  # ended by resignations, rated
    three_way(c, a, b)  # ended before a round was played: not rated
    going = started_game([c, a])
    play_rounds(going, 2)  # still in play: its rounds count in the statistics
    before = stored()
    rounds, seats, (_ratings, changes) = before
    assert {row[0] for row in rounds} == {whole.pk, partly.pk, going.pk}
    assert sorted(row[4] for row in seats if row[3] is not None) == [2, 2, 3, 3, 3, 3, 3, 3]
    assert len(changes) == 2 + 3
    # Wipe what the services stored, then rebuild it from the moves.
    RoundScore.objects.all().delete()
    Seat.objects.update(final_rank=None, final_total=None, finished_at=None, players=None)
    out = io.StringIO()
    call_command("rebuild_stats", stdout=out)
    assert stored() == before
    assert "rated 2 games" in out.getvalue()
    # Rebuilding what is already right changes nothing.
    call_command("rebuild_stats", stdout=io.StringIO())
    assert stored() == before
