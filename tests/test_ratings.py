"""Ratings (games/ratings.py): written with the game's end, once per game, and rebuilt alike."""

import io
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from games import invitations, services
from games.models import Game, Rating, RatingChange
from games.ratings import game_rate
from tests.factories import GameFactory, UserFactory, started_game
from tests.rated_games import play_rounds, snapshot, three_way

pytestmark = pytest.mark.django_db


@pytest.fixture
def every_game_rated(settings):
    """Rate games however few rounds were played, so that resignations make quick results."""
    settings.RATING_MIN_ROUNDS = 0


@pytest.mark.postgres
def test_a_finished_game_writes_one_rating_change_per_seat(every_game_rated):
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    game = three_way(a, b, c)
    assert game.status == Game.Status.FINISHED
    changes = {change.user_id: change for change in RatingChange.objects.filter(game=game)}
    assert set(changes) == {a.pk, b.pk, c.pk}
    assert changes[a.pk].rank == 1 and changes[b.pk].rank == changes[c.pk].rank == 2
    assert changes[a.pk].mu_after > changes[a.pk].mu_before
    assert changes[b.pk].mu_after < changes[b.pk].mu_before
    ratings = {rating.user_id: rating for rating in Rating.objects.all()}
    assert ratings[a.pk].games == ratings[b.pk].games == 1
    assert ratings[a.pk].ordinal > ratings[b.pk].ordinal == pytest.approx(ratings[c.pk].ordinal)
    assert ratings[a.pk].mu == changes[a.pk].mu_after


@pytest.mark.postgres
def test_a_rolled_back_finish_leaves_no_rating(every_game_rated):
    """The rating is written in the transaction that ends the game: if anything after it fails,
    neither the game's end nor the rating happened."""
    a, b = UserFactory(), UserFactory()
    game = started_game([a, b])
    with (
        mock.patch("games.services.game_over_queue", side_effect=RuntimeError("mail down")),
        pytest.raises(RuntimeError),
    ):
        services.game_resign(game_id=game.pk, user=b)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


@pytest.mark.postgres
def test_rating_a_game_a_second_time_changes_nothing(every_game_rated):
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    game = three_way(a, b, c)
    before = snapshot()
    with transaction.atomic():
        again = game_rate(game=game, seats=list(game.seats.all()))
    assert again is False
    assert snapshot() == before
    assert RatingChange.objects.filter(game=game).count() == 3


@pytest.mark.postgres
def test_the_database_refuses_a_second_rating_change_for_one_game_and_player(every_game_rated):
    a, b = UserFactory(), UserFactory()
    game = started_game([a, b])
    services.game_resign(game_id=game.pk, user=b)
    change = RatingChange.objects.get(game=game, user=a)
    change.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        change.save()


def test_a_game_resigned_before_a_round_was_played_is_not_rated():
    game = GameFactory(resigned=True)
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_practice_game_is_not_rated(settings):
    settings.RATING_MIN_ROUNDS = 0  # a resignation would be rated in any other game
    me = UserFactory()
    practice = services.game_practice_create(user=me)
    services.game_resign(game_id=practice.pk, user=me)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert invitations.game_rematch(game_id=practice.pk, user=me).rated is False


@pytest.mark.slow
def test_a_game_resigned_after_a_full_round_is_rated():
    a, b = UserFactory(), UserFactory()
    game = started_game([a, b])
    play_rounds(game, 1)
    services.game_resign(game_id=game.pk, user=b)
    ranks = dict(RatingChange.objects.filter(game=game).values_list("user_id", "rank"))
    assert ranks == {a.pk: 1, b.pk: 2}


def test_bots_are_rated_each_account_on_its_own(every_game_rated):
    me = UserFactory()
    game = GameFactory(created_by=me, seat_count=3, bots="easy", started=True)
    services.game_resign(game_id=game.pk, user=me)
    rated = dict(Rating.objects.filter(user__is_bot=True).values_list("user__bot_kind", "games"))
    assert rated == {"easy": 1, "easy-2": 1}
    assert Rating.objects.get(user=me).ordinal < Rating.objects.get(user__bot_kind="easy").ordinal


@pytest.mark.slow
def test_rebuild_ratings_finds_the_same_numbers(every_game_rated):
    a, b, c, d = (UserFactory() for _ in range(4))
    three_way(a, b, c)
    three_way(c, d, a)
    game = started_game([b, d])
    play_rounds(game, 2)
    services.game_resign(game_id=game.pk, user=d)
    three_way(d, a, b)
    GameFactory(finished=True, players=[c], seat_count=2)  # every total 0: a tie
    before = snapshot()
    assert len(before[1]) == 3 + 3 + 2 + 3 + 2
    call_command("rebuild_ratings", stdout=io.StringIO())
    assert snapshot() == before
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    call_command("rebuild_ratings", stdout=io.StringIO())
    assert snapshot() == before
