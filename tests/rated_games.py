"""Games played to a result for the ratings and results tests: rounds played through the
services, a three-way game decided by resignations, and the ratings table as a comparable value."""

import random

from games import services
from games.engine import GameState, get_bot
from games.models import Game, Rating, RatingChange
from tests.factories import play_one, started_game


def play_rounds(game, rounds):
    """Play good moves through the services until `rounds` rounds are over."""
    by_seat = {seat.index: seat.user for seat in game.seats.select_related("user")}
    bot, rng = get_bot("easy"), random.Random(game.seed)
    while game.status == Game.Status.ACTIVE and game.round_index < rounds:
        view = GameState.from_dict(game.state).view(game.to_move_seat)
        play_one(game, by_seat, choose=lambda actions, view=view: bot.choose(view, rng))


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
