"""The one lock every write on a game takes first, and the order locks are taken in.

Lock order, so that two transactions never wait on each other in a circle:
0. a quick-play pool's advisory lock (games/competitions/quick.py: one seek of a pool at a time);
1. a player's row (`User`, only to book or end a vacation: one booking at a time per player);
2. game rows, through `lock_game`, one at a time and in ascending id when a write needs several;
3. rows that belong to a locked game (its seats, invitations);
4. players' `Rating` rows, in ascending user id, when the game ends (games/ratings.py);
5. a notification row (sending a mail locks that row alone).

Competitions lock their own rows in tasks and requests that hold no game's lock:
- a tournament's row (games/competitions/tournaments.py `lock_tournament`) first of all,
  before the games it seats;
- a league season's row before its divisions' when the season starts (its divisions are made in
  that transaction), and a division's row before its season's when the division finds the
  season done (games/competitions/leagues.py); a player who leaves a season resigns their
  games (2) first, then takes their division's row, as a drop for timeouts does.
"""

from __future__ import annotations

from django.db.models import Prefetch

from .errors import NoSuchGame
from .models import Game, Seat


def lock_game(game_id: int, *, seats: bool = False) -> Game:
    """Lock the game row for the rest of the transaction (the one lock every write takes first).
    With `seats`, its seats come along in seat order, with their players and the players'
    settings and ratings (`game.seats.all()`, one more query): what a move reads, and the table
    it answers with."""
    query = Game.objects.select_for_update()
    if seats:
        query = query.prefetch_related(
            Prefetch(
                "seats",
                Seat.objects.select_related("user__preferences", "user__rating").order_by("index"),
            )
        )
    try:
        game = query.get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise NoSuchGame from None
    game.seats_loaded = seats
    return game


def seat_at(game: Game, index: int) -> Seat:
    """The seat at `index`, with its player and their settings: from the seats lock_game read,
    else one query."""
    if game.seats_loaded:
        return next(seat for seat in game.seats.all() if seat.index == index)
    return game.seats.select_related("user__preferences").get(index=index)
