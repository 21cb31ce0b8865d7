"""The clock seen from the browser: coming back from autopilot ("I'm back"), and vacations (the
page stays at /accounts/vacation/, named "vacation")."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..deadlines import timeouts, vacations
from ..errors import GameError
from ..forms import VacationEndForm, VacationForm
from .play import viewable_game


@require_POST
@login_required
def seat_resume(request, game_id):
    viewable_game(request, game_id)  # else 404, before any refusal tells about the game
    try:
        timeouts.seat_resume(game_id=game_id, user=request.user)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Welcome back: the seat is yours again."))
    return redirect("game", game_id=game_id)


@login_required
def vacation(request):
    """Book days off (the clocks of your turns stand still), or end a vacation."""
    action = request.POST.get("action")
    form = VacationForm(request.POST if action == "book" else None)
    status, error = 200, None
    if request.method == "POST":
        try:
            if action == "end":
                ending = VacationEndForm(request.POST)
                if not ending.is_valid():
                    raise GameError(_("There is no such vacation to end."), status=404)
                vacations.vacation_end(user=request.user, **ending.cleaned_data)
                messages.success(request, _("Your vacation is over; your clocks run again."))
                return redirect("vacation")
            if form.is_valid():
                vacations.vacation_book(user=request.user, **form.cleaned_data)
                messages.success(request, _("Vacation booked: your clocks stand still then."))
                return redirect("vacation")
            status = 400
        except GameError as failure:
            status, error = failure.status, failure.message
    context = {"form": form, "error": error, **vacations.vacation_overview(request.user)}
    return render(request, "accounts/vacation.html", context, status=status)
