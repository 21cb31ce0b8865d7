"""Shared by the page tests: games finished and shared between players, a follow, a game where
the other player moved, rated players; the table's marks and its own requests' headers."""

import datetime

from django.utils import timezone

from games import friends
from games.models import Rating, RatingChange, RoundScore, Seat
from loadtest.table import marks_of
from tests.factories import GameFactory, UserFactory, started_game
from tests.notifications.helpers import play_turn, seat_to_move

# A request of the table's own, as htmx sends it: its answer may be the table's parts.
TABLE_ASKS = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "table"}


def marks(response) -> dict[str, str]:
    """The marks of what a table page or answer holds (#table-marks), which the table's
    requests send."""
    return marks_of(response.content.decode())


EPOCH = timezone.now() - datetime.timedelta(days=100)  # finished_game's day 0


def finished_game(player, *, players=2, rank=1, total=0, day=0, rounds=(), rated=True):
    """A finished game where `player` took `rank` with `total` points on day `day`, with their
    RoundScore rows as (hand_size, penalty, went_out), rated for them unless `rated` is False."""
    game = GameFactory(created_by=player, seat_count=players, finished=True)
    seat = Seat.objects.get(game=game, user=player)
    when = EPOCH + datetime.timedelta(days=day)
    Seat.objects.filter(pk=seat.pk).update(final_rank=rank, final_total=total, finished_at=when)
    RatingChange.objects.filter(game=game, user=player).delete()  # what the factory rated
    if rated:
        RatingChange.objects.create(
            game=game, user=player, rank=rank, mu_before=25, sigma_before=8, mu_after=25,
            sigma_after=8, ordinal_after=1, finished_at=when,
        )  # fmt: skip
    RoundScore.objects.bulk_create(
        RoundScore(
            game=game,
            round_index=hand_size - 3,
            seat=seat.index,
            user=player,
            hand_size=hand_size,
            wild_rank=hand_size,
            penalty=penalty,
            went_out=went_out,
            melds=[],
            deadwood=[],
        )
        for hand_size, penalty, went_out in rounds
    )
    return game


def shared_game(first, second, *, first_rank, second_rank, day=0):
    game = finished_game(first, rank=first_rank, day=day)
    seat = game.seats.exclude(user=first).get()
    game.seats.filter(pk=seat.pk).update(user=second, final_rank=second_rank)
    return game


def follow(follower, followee):
    return friends.follow_create(follower=follower, followee=followee)


def a_game_where_the_other_moved(me, other):
    """A started game of two in which `other` has just played a turn: it is `me`'s turn."""
    game = started_game([me, other])
    if seat_to_move(game).user == me:
        play_turn(game)
    play_turn(game)
    assert seat_to_move(game).user == me
    return game


def rated_players(count, *, games=5, start=0.0):
    """`count` players with a rating, strongest first (their ordinals fall one by one)."""
    users = [UserFactory() for _ in range(count)]
    Rating.objects.bulk_create(
        Rating(user=user, mu=25 + start - i, sigma=1.0, ordinal=22 + start - i, games=games)
        for i, user in enumerate(users)
    )
    return users
