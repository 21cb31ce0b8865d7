"""Guards a write passes on a game it has locked: who the player is at it, whether it is still
open, whether they created it. Each raises GameError with the reason for the player. (Named
apart from Django's system checks, which `checks` would bring to mind.)"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.zones import zoned

from .errors import GameError
from .models import Game, Seat


def seat_of(game: Game, user: User) -> Seat:
    """The player's seat at this game; 403 if they have none."""
    if not user.is_authenticated:
        seat = None
    elif game.seats_loaded:  # lock_game(seats=True) read them
        seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    else:
        seat = game.seats.filter(user=user).first()
    if seat is None:
        raise GameError(_("You have no seat at this game."), status=403)
    return seat


def require_open(game: Game) -> None:
    """The game is still waiting for players (not started, ended or cancelled)."""
    if game.status != Game.Status.OPEN:
        raise GameError(_("This game has already started or ended."), status=409)


def require_creator(game: Game, user: User) -> None:
    if game.quick:  # its creator is only its first seeker
        raise GameError(
            _("A quick-play game has no host: it starts by itself when full."), status=403
        )
    if game.created_by_id != user.pk:
        raise GameError(_("Only the game's creator can do that."), status=403)


def require_may_play(user: User) -> None:
    """Not suspended by the staff (games/moderation.py): a suspended player starts, joins and
    plays no game until the suspension ends; their games in play go on with the autopilot."""
    if user.is_authenticated and user.is_suspended(timezone.now()):
        raise GameError(
            _(
                "Your account is suspended until %(until)s: you cannot start, join or play games "
                "until then. Your games in play go on with the autopilot."
            )
            % {"until": zoned(user.suspended_until)},
            status=403,
        )
