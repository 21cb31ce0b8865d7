"""A record asked of those who enter (games/competitions/records.py): quick play, and the
leagues and tournaments whose host set a limit, keep out a player who abandoned more than that
share of their games (once five have ended); the same counts as the player page's."""

import datetime

import pytest
from django.utils import timezone

from games.competitions import leagues, quick, records, tournaments
from games.errors import GameError
from games.models import Seat
from tests.factories import UserFactory, finish_game, started_game

pytestmark = pytest.mark.django_db


def with_record(completed: int, abandoned: int):
    """A player with `completed` games played to the end and `abandoned` dropped ones."""
    player = UserFactory()
    for _ in range(completed):
        finish_game(started_game([player, UserFactory()]))
    for _ in range(abandoned):
        game = started_game([player, UserFactory(), UserFactory()])
        Seat.objects.filter(game=game, user=player).update(dropped=True, resigned=True)
    return player


def test_the_record_counts_games_to_the_end_and_games_abandoned():
    assert records.abandonment(with_record(2, 1)) == (2, 1)


@pytest.mark.parametrize(
    ("completed", "abandoned", "limit", "allowed"),
    [
        (3, 1, 10, True),  # four games ended: too few to read
        (4, 1, 25, True),  # 20%
        (3, 2, 25, False),  # 40%
        (3, 2, None, True),  # no limit
    ],
)
def test_the_limit_reads_a_record_of_five_games_or_more(completed, abandoned, limit, allowed):
    player = with_record(completed, abandoned)
    if allowed:
        records.require_record(player, limit)
        return
    with pytest.raises(GameError) as refused:
        records.require_record(player, limit)
    assert refused.value.status == 403
    assert "you abandoned 2 of 5" in refused.value.message


def test_quick_play_tournaments_and_leagues_keep_out_a_player_over_the_limit(settings):
    settings.QUICK_PLAY_MAX_ABANDONED_PERCENT = 25
    quitter, host = with_record(3, 2), UserFactory()
    cup = tournaments.tournament_create(
        host=host, name="Strict cup", preset="classic", seats_per_table=2, rounds=1,
        time_per_move_days=3, starts_at=timezone.now() + datetime.timedelta(days=1),
        max_abandoned_percent=25,
    )  # fmt: skip
    league = leagues.league_create(
        user=host, name="Strict", preset="classic", max_abandoned_percent=10
    )
    attempts = {
        "quick": lambda: quick.seek_create(
            player=quitter, seats=2, preset="classic", time_per_move_days=3
        ),
        "tournament": lambda: tournaments.tournament_join(tournament_id=cup.pk, user=quitter),
        "league": lambda: leagues.league_join(league_id=league.pk, user=quitter),
    }
    for what, attempt in attempts.items():
        with pytest.raises(GameError) as refused:
            attempt()
        assert refused.value.status == 403, what
    # A player with a clean record enters all three; with no limit, anyone does.
    clean = with_record(5, 0)
    quick.seek_create(player=clean, seats=2, preset="classic", time_per_move_days=3)
    tournaments.tournament_join(tournament_id=cup.pk, user=clean)
    leagues.league_join(league_id=league.pk, user=clean)
    settings.QUICK_PLAY_MAX_ABANDONED_PERCENT = None
    quick.seek_create(player=quitter, seats=2, preset="classic", time_per_move_days=3)


def test_a_host_picks_a_limit_from_the_list():
    with pytest.raises(GameError):
        leagues.league_create(
            user=UserFactory(), name="Odd", preset="classic", max_abandoned_percent=33
        )
