"""Leagues from the browser: the list (and a new league's form), a league with its current
season (join, leave), a division's standings and games, and the one-click opt-in of a season's
result mail (GET shows a button; only its POST enters the player)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ..competitions import leagues
from ..competitions.forms import LeagueForm
from ..errors import GameError
from ..models import Division, League, LeagueEntry, LeagueSeason
from ..notifications.optin import optin_read
from ..ratelimit import rate_limit_consume
from ..selectors.leagues import (
    current_season,
    division_games,
    division_standings,
    leagues_page,
)


def _error(request, error: GameError):
    return render(request, "games/error.html", {"error": error.message}, status=error.status)


def league_list(request):
    """GET: every league, those open for players first; the new-league form. POST: create."""
    form, status, error = None, 200, None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        form = LeagueForm(request.POST)
        if form.is_valid():
            try:
                rate_limit_consume(user=request.user, action="league")
                league = leagues.league_create(user=request.user, **form.cleaned_data)
            except GameError as exc:
                status, error = exc.status, exc.message
            else:
                return redirect("league", league_id=league.pk)
        else:
            status = 400
    context = {
        "page": leagues_page(request.GET.get("page")),
        "form": form or LeagueForm(),
        "error": error,
    }
    return render(request, "games/leagues.html", context, status=status)


def _act(request, league_id: int, service, done: str):
    """A player's post on the league's page: the service, then back to the page saying what was
    done (or the refusal's page)."""
    try:
        service(league_id=league_id, user=request.user)
    except GameError as error:
        return _error(request, error)
    messages.success(request, done)
    return redirect("league", league_id=league_id)


def _league(league_id: int) -> League:
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise Http404(_("There is no such league."))
    return league


@require_safe
def league_detail(request, league_id: int):
    league = _league(league_id)
    season = current_season(league)
    divisions = list(season.divisions.order_by("level")) if season else []
    mine = (
        LeagueEntry.objects.filter(season=season, user=request.user).first()
        if season and request.user.is_authenticated
        else None
    )
    context = {
        "league": league,
        "season": season,
        "divisions": divisions,
        "entry": mine,
        "members": list(
            season.entries.filter(user__is_bot=False)
            .select_related("user")
            .order_by("created_at", "pk")
        )
        if season
        else [],
        "may_start": season is not None
        and season.status == LeagueSeason.Status.REGISTRATION
        and request.user.is_authenticated
        and (request.user.pk == league.created_by_id or request.user.is_staff),
        "seasons": league.seasons.filter(status=LeagueSeason.Status.FINISHED).order_by("-number"),
    }
    return render(request, "games/league.html", context)


@require_POST
@login_required
def league_join(request, league_id: int):
    done = _("You are in. The season's games start when it does.")
    return _act(request, league_id, leagues.league_join, done)


@require_POST
@login_required
def league_start(request, league_id: int):
    """The host's (or the staff's) "start now", as a tournament's."""
    return _act(request, league_id, leagues.league_start_now, _("The season has begun."))


@require_POST
@login_required
def league_leave(request, league_id: int):
    return _act(request, league_id, leagues.league_leave, _("You have left the season."))


@require_safe
def league_division(request, league_id: int, number: int, level: int):
    division = (
        Division.objects.select_related("season__league")
        .filter(season__league_id=league_id, season__number=number, level=level)
        .annotate(divisions=Count("season__divisions"))
        .first()
    )
    if division is None:
        raise Http404(_("There is no such division."))
    season = division.season
    context = {
        "league": season.league,
        "season": season,
        "division": division,
        "rows": division_standings(division),
        "games": division_games(division),
        "finished": season.status == LeagueSeason.Status.FINISHED,
        # Nobody moves in a season of one division.
        "movers": season.league.movers if division.divisions > 1 else 0,
    }
    return render(request, "games/league_division.html", context)


def league_optin(request, token: str):
    """The season mail's link: a page with one button (a GET never enters anyone: mail
    scanners open links); its POST enters the player in the next season."""
    found = optin_read(token)
    entry = (
        LeagueEntry.objects.select_related("season__league", "user")
        .filter(pk=found[1], user_id=found[0])
        .first()
        if found
        else None
    )
    if entry is None:
        return _error(request, GameError(_("This link is not valid."), status=404))
    if request.method == "POST":
        try:
            leagues.league_optin(token=token)
        except GameError as error:
            return _error(request, error)
        messages.success(request, _("You are in the next season."))
        return redirect("league", league_id=entry.season.league_id)
    return render(request, "games/league_optin.html", {"entry": entry, "token": token})
