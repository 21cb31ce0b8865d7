"""The leaderboard and a player's page (their rating and its history)."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from accounts.models import User

from ..selectors import ratings


@login_required
def leaderboard(request):
    context = {
        "page": ratings.leaderboard(request.GET.get("page")),
        "min_games": settings.LEADERBOARD_MIN_GAMES,
    }
    return render(request, "games/leaderboard.html", context)


@login_required
def player(request, username: str):
    if "\x00" in username:  # PostgreSQL refuses a NUL in a query: no such player
        raise Http404
    shown = get_object_or_404(User, username=username, is_active=True)
    context = {"shown": shown, **ratings.player_profile(shown)}
    return render(request, "games/player.html", context)
