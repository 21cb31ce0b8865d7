"""Invitations seen from the browser: the host inviting a player, the player accepting or
declining (and their dashboard's poll for new ones), and a rematch after a finished game."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from .. import invitations
from ..errors import GameError
from ..ratelimit import rate_limit_consume
from ..selectors import lists
from ..selectors.dashboard import dashboard_page
from .play import render_game, to_login, viewable_game


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
    context = dashboard_page(request.user, page=request.GET.get("page"))
    return render(request, "games/dashboard.html", context, status=error.status)


@never_cache
@require_GET
def invitations_waiting(request):
    """The dashboard's invitations, for its poll: 204 (nothing to swap) while they are what the
    page shows (`i`, their mark), else the section anew, so that a rematch or an invitation
    offered meanwhile shows without a reload."""
    if not request.user.is_authenticated:  # the session ended while the page was open
        return to_login(request, reverse("home"))
    if request.GET.get("i") == lists.invitations_mark(request.user):
        return HttpResponse(status=204)
    return render(request, "games/dashboard.html#invitations", dashboard_page(request.user))


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
