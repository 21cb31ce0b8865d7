"""Tournaments from the browser: the list (and the form a host opens one with), a tournament's
page (its players, standing and rounds), joining, leaving and the host's "start now". Plain
forms: they work without JavaScript."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ..competitions import tournaments
from ..competitions.forms import TournamentForm
from ..errors import GameError
from ..models import Tournament
from ..pairing import points_text
from ..ratings import rating_of
from ..selectors.tournaments import standings, tournament_rounds, tournaments_listed


def _list_page(request, form, *, status=200, error=None):
    context = {"form": form, "error": error, **tournaments_listed()}
    return render(request, "games/tournaments.html", context, status=status)


@login_required
def tournament_list(request):
    """GET: the open, playing and finished tournaments, and the form to open one. POST: open
    it (signed-in players)."""
    if request.method != "POST":
        return _list_page(request, TournamentForm())
    form = TournamentForm(request.POST)
    if not form.is_valid():
        return _list_page(request, form, status=400)
    try:
        tournament = tournaments.tournament_create(host=request.user, **form.cleaned_data)
    except GameError as error:
        return _list_page(request, form, status=error.status, error=error.message)
    return redirect("tournament", tournament_id=tournament.pk)


def _tournament(tournament_id: int) -> Tournament:
    tournament = (
        Tournament.objects.select_related("created_by", "winner").filter(pk=tournament_id).first()
    )
    if tournament is None:
        raise Http404(_("There is no such tournament."))
    return tournament


@require_GET
@login_required
def tournament_detail(request, tournament_id):
    return _detail_page(request, tournament_id)


def _detail_page(request, tournament_id, *, status=200, error=None):
    tournament = _tournament(tournament_id)
    lines = standings(tournament)
    for line in lines:
        line.points_text = points_text(line.points)
        line.buchholz_text = points_text(line.buchholz)
        line.shown_rating = rating_of(line.user)  # until the start (its seeding), today's rating
    context = {
        "tournament": tournament,
        "standings": lines,
        "rounds": tournament_rounds(tournament),
        "entered": any(line.user.pk == request.user.pk for line in lines),
        "is_host": request.user.pk == tournament.created_by_id,
        "min_players": tournaments.min_players(tournament),
        "error": error,
    }
    return render(request, "games/tournament.html", context, status=status)


def _act(request, tournament_id, action, done: str):
    try:
        action(tournament_id=tournament_id, user=request.user)
    except GameError as error:
        if error.status == 404:
            raise Http404(error.message) from None
        return _detail_page(request, tournament_id, status=error.status, error=error.message)
    messages.success(request, done)
    return redirect("tournament", tournament_id=tournament_id)


@require_POST
@login_required
def tournament_join(request, tournament_id):
    return _act(request, tournament_id, tournaments.tournament_join, _("You are in."))


@require_POST
@login_required
def tournament_leave(request, tournament_id):
    return _act(request, tournament_id, tournaments.tournament_leave, _("You left the tournament."))


@require_POST
@login_required
def tournament_start(request, tournament_id):
    return _act(
        request, tournament_id, tournaments.tournament_start, _("The tournament has begun.")
    )
