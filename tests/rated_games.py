"""Games played to a result for the ratings and results tests: rounds played through the
services, a three-way game decided by resignations, and the ratings table as a comparable value."""

import random

from games import services
from games.models import Rating, RatingChange
from tests.factories import play_on, started_game


def play_rounds(game, rounds):
    """Play good moves through the services until `rounds` rounds are over."""
    play_on(game, until=lambda game: game.round_index >= rounds, rng=random.Random(game.seed))


def three_way(a, b, c):
    """a wins: c resigns, then b, and the game ends with a alone (b and c tie for last)."""
    game = started_game([a, b, c])
    services.game_resign(game_id=game.pk, user=c)
    services.game_resign(game_id=game.pk, user=b)
    game.refresh_from_db()
    return game


def snapshot():
    ratings = set(Rating.objects.values_list("user_id", "mu", "sigma", "ordinal", "games"))
    changes = set(
        RatingChange.objects.values_list("game_id", "user_id", "rank", "mu_after", "sigma_after")
    )
    return ratings, changes
