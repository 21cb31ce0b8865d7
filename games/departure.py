"""A player leaving the site for good. The games keep their seats, moves and results (the other
players' history and ratings rest on them), but the person goes: their games in play go on
without them (seat_depart: a bot plays the seat), the games they were waiting in lose them, and
the mail and invitations addressed to them go, and their follows both ways. Then
accounts.services.user_delete forgets the person.

Why here and not a signal or a hook in accounts: accounts imports nothing from games, and the
one writer that knows both sides is the games side, which already imports accounts; the view
calls account_delete, one service, so no half-deleted account is possible."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower

from accounts.models import DELETED_USERNAME_PREFIX, User
from accounts.services import user_delete

from . import services
from .guards import seat_of
from .locking import lock_game
from .models import Follow, Game, Invitation, Notification, Seat


@transaction.atomic
def seat_depart(*, game_id: int, user: User) -> Game:
    """`user` leaves the site during this game in play: a bot plays their seat to the end, which
    ranks after everyone who stayed, as a resignation does, and the game is not rated for them
    (games/ratings.py). The others finish the game; it ends at once, ranked by the totals so
    far, only when nobody is left to finish it for: no person still playing, or nobody left for
    them to play against (of two people alone, the other has won)."""
    game = lock_game(game_id)
    seat = seat_of(game, user)
    seat.resigned = seat.departed = True
    seat.autopilot = False
    seat.save(update_fields=["resigned", "departed", "autopilot"])
    playing = game.seats.filter(resigned=False)
    nobody_left = not playing.filter(user__is_bot=False).exists() or playing.count() < 2
    return services.game_play_on(game=game, end_now=nobody_left)


def player_forget(*, user: User) -> None:
    """The games' side of deleting `user`, in the caller's transaction. Each game is locked by the
    service that changes it, one at a time in id order (the services' own lock order)."""
    seats = Seat.objects.filter(user=user).order_by("game_id")
    for game_id in seats.filter(game__status=Game.Status.OPEN).values_list("game_id", flat=True):
        services.game_leave(game_id=game_id, user=user)  # the host leaving cancels the game
    # Also a seat resigned before: the game, still in play, is then not rated for them either.
    for game_id in seats.filter(game__status=Game.Status.ACTIVE).values_list("game_id", flat=True):
        seat_depart(game_id=game_id, user=user)
    names = [name.lower() for name in (user.username, user.email) if name]
    Invitation.objects.alias(lowered=Lower("invited_as")).filter(
        Q(invitee=user) | Q(invited_by=user) | Q(invitee__isnull=True, lowered__in=names),
        status=Invitation.Status.PENDING,
    ).delete()
    # An answered invitation stays (the game's record), without the name or email it was sent to.
    Invitation.objects.filter(invitee=user).update(invited_as=f"{DELETED_USERNAME_PREFIX}{user.pk}")
    Notification.objects.filter(user=user).delete()
    Follow.objects.filter(Q(follower=user) | Q(followee=user)).delete()


@transaction.atomic
def account_delete(*, user: User) -> User:
    """Delete the player's account: the games forget them, then the account does."""
    player_forget(user=user)
    return user_delete(user=user)
