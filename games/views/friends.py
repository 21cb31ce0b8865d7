"""Following players and the friends page: follow and unfollow from a player's page, the list of
the players one follows, and a new game with one of them in one click."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User

from .. import friends, invitations
from ..errors import GameError
from ..ratelimit import rate_limit_consume
from ..selectors import friends as friends_selectors
from .players import player_or_404


def _back(request, player: User):
    """Back where the button was: the friends page, or the player's page."""
    if request.POST.get("back") == "friends":
        return redirect("friends")
    return redirect("player", username=player.username)


def _refused(request, error: GameError):
    return render(request, "games/error.html", {"error": error.message}, status=error.status)


@require_POST
@login_required
def follow(request, username: str):
    player = player_or_404(username)
    try:
        friends.follow_create(follower=request.user, followee=player)
    except GameError as error:
        return _refused(request, error)
    messages.success(request, _("You follow %(who)s.") % {"who": player.name})
    return _back(request, player)


@require_POST
@login_required
def unfollow(request, username: str):
    player = player_or_404(username)
    friends.follow_delete(follower=request.user, followee=player)
    messages.success(request, _("You no longer follow %(who)s.") % {"who": player.name})
    return _back(request, player)


@login_required
def friends_page(request):
    return render(
        request, "games/friends.html", {"friends": friends_selectors.friends(request.user)}
    )


@require_POST
@login_required
def friend_invite(request, username: str):
    player = player_or_404(username)
    try:
        rate_limit_consume(user=request.user, action="invitation")
        game = invitations.friend_invite(user=request.user, friend=player)
    except GameError as error:
        return _refused(request, error)
    messages.success(
        request,
        _("%(who)s is invited to this game. Start it once they have taken the seat.")
        % {"who": player.name},
    )
    return redirect("game", game_id=game.pk)
