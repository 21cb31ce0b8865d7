"""Invitations seen from the browser: the host inviting a player, the player accepting or
declining, and a rematch after a finished game."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import invitations
from ..errors import GameError
from ..ratelimit import rate_limit_consume
from ..selectors import lists
from .play import render_game, viewable_game


@require_POST
@login_required
def game_invite(request, game_id):
    game, seat = viewable_game(request, game_id)  # else 404, before any refusal tells about it
    try:
        rate_limit_consume(user=request.user, action="invitation")
    except GameError as error:
        return render(request, "games/error.html", {"error": error.message}, status=error.status)
    try:
        who = request.POST.get("who", "")
        invitations.game_invite(game_id=game_id, user=request.user, who=who)
    except GameError as error:  # the waiting room again, with the reason by the form
        return render_game(request, game, seat, status=error.status, error=error.message)
    # Whether such a player exists stays unsaid (games/invitations.py), so this claims no more.
    messages.success(
        request,
        _("If a player has the name “%(who)s”, they will see your invitation.")
        % {"who": who.strip()[:60]},
    )
    return redirect("game", game_id=game_id)


def _dashboard_refusing(request, error: GameError):
    """The dashboard again, with the reason, under the error's 4xx status."""
    messages.error(request, error.message)
    context = lists.dashboard(request.user, page=request.GET.get("page"))
    return render(request, "games/dashboard.html", context, status=error.status)


@require_POST
@login_required
def invitation_accept(request, invitation_id):
    try:
        seat = invitations.invitation_accept(invitation_id=invitation_id, user=request.user)
    except GameError as error:
        return _dashboard_refusing(request, error)
    messages.success(request, _("You have a seat at this game."))
    return redirect("game", game_id=seat.game_id)


@require_POST
@login_required
def invitation_decline(request, invitation_id):
    try:
        invitations.invitation_decline(invitation_id=invitation_id, user=request.user)
    except GameError as error:
        return _dashboard_refusing(request, error)
    messages.success(request, _("Invitation declined."))
    return redirect("home")


@require_POST
@login_required
def game_rematch(request, game_id):
    viewable_game(request, game_id)
    try:
        game = invitations.game_rematch(game_id=game_id, user=request.user)
    except GameError as error:
        return _dashboard_refusing(request, error)
    return redirect("game", game_id=game.pk)
