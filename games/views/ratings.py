"""The leaderboard and a player's page (their rating and its history, their statistics)."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from accounts.models import User

from ..selectors import player_stats, ratings


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
    users = User.objects.select_related("preferences")
    shown = get_object_or_404(users, username=username, is_active=True)
    if not player_stats.profile_visible(shown=shown, viewer=request.user):
        # 403, not 404: the player exists (their name is on the leaderboard and at their tables);
        # only their page is withheld.
        context = {"error": _("This profile is private.")}
        return render(request, "games/error.html", context, status=403)
    context = {
        "shown": shown,
        **ratings.player_profile(shown),
        **player_stats.player_stats(shown),
    }
    return render(request, "games/player.html", context)
