"""Following players and the friends page: follow and unfollow from a player's page, the list of
the players one follows, and a new game with one of them in one click."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.selectors import player_named

from .. import friends, invitations
from ..errors import GameError
from ..ratelimit import rate_limit_consume
from ..selectors import friends as friends_selectors


def _player(username: str) -> User:
    if (player := player_named(username, User.objects.filter(is_active=True))) is None:
        raise Http404(_("There is no such player."))
    return player


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
    player = _player(username)
    try:
        friends.follow_create(follower=request.user, followee=player)
    except GameError as error:
        return _refused(request, error)
    messages.success(request, _("You follow %(who)s.") % {"who": player.name})
    return _back(request, player)


@require_POST
@login_required
def unfollow(request, username: str):
    player = _player(username)
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
    player = _player(username)
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
