"""The one lock every write on a game takes first, and the order locks are taken in.

Lock order, so that two transactions never wait on each other in a circle:
1. a player's row (`User`, only to book or end a vacation: one booking at a time per player);
2. game rows, through `lock_game`, one at a time and in ascending id when a write needs several;
3. rows that belong to a locked game (its seats, invitations);
4. players' `Rating` rows, in ascending user id, when the game ends (games/ratings.py);
5. a notification row (sending a mail locks that row alone).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from .errors import GameError
from .models import Game


def lock_game(game_id: int) -> Game:
    """Lock the game row for the rest of the transaction (the one lock every write takes first)."""
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise GameError(_("There is no such game."), status=404) from None
