"""Quick play from the browser: "Find me a game" (the form, and its POST seating the player)
and cancelling a seek. Plain forms: they work without JavaScript."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..competitions import quick
from ..errors import GameError
from ..forms import QuickPlayForm
from ..ratings import rating_of
from ..selectors.seeks import seeks_open


def _page(request, form, *, status=200, error=None):
    context = {
        "form": form,
        "seeks": seeks_open(request.user),
        "error": error,
        "my_rating": rating_of(request.user),
    }
    return render(request, "games/quick.html", context, status=status)


@login_required
def seek_new(request):
    """GET: the form and the player's open seeks. POST: seat the player in a quick game (a
    waiting one that matches, or a new one) and show it."""
    if request.method != "POST":
        return _page(request, QuickPlayForm())
    form = QuickPlayForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    data = form.cleaned_data
    try:
        seek = quick.seek_create(
            player=request.user,
            seats=form.seat_count(),
            preset=data["preset"],
            time_per_move_days=data["time_per_move_days"],
        )
    except GameError as error:
        return _page(request, form, status=error.status, error=error.message)
    return redirect("game", game_id=seek.game_id)


@require_POST
@login_required
def seek_cancel(request, seek_id):
    try:
        quick.seek_cancel(seek_id=seek_id, player=request.user)
    except GameError as error:
        return _page(request, QuickPlayForm(), status=error.status, error=error.message)
    messages.success(request, _("You are no longer looking for that game."))
    return redirect("seek_new")
