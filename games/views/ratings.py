"""The leaderboard and a player's page (their rating and its history, their statistics)."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import player_named

from ..moderation import is_moderator
from ..selectors import player_stats, ratings, reviews
from ..selectors.friends import with_follows
from ..selectors.leagues import LEAGUE_HISTORY_ROWS, player_league_history
from ..selectors.tournaments import player_tournaments
from .moderation import PlayerReportForm
from .players import player_or_404


@login_required
def leaderboard(request):
    context = {
        "page": ratings.leaderboard(request.GET.get("page")),
        "min_games": settings.LEADERBOARD_MIN_GAMES,
    }
    return render(request, "games/leaderboard.html", context)


def _compared_with(request, shown: User) -> tuple[User | None, str | None]:
    """Whom the head-to-head compares `shown` with: the player named by ?vs=, if the viewer may
    see their page, else the viewer themself (not on their own page). And an error to show."""
    name = request.GET.get("vs", "").strip()
    if not name:
        return (None if request.user.pk == shown.pk else request.user), None
    other = player_named(name, User.objects.select_related("preferences").filter(is_active=True))
    if other is None or other.pk == shown.pk:
        return None, _("There is no other player called “%(name)s”.") % {"name": name}
    if not player_stats.profile_visible(shown=other, viewer=request.user):
        return None, _("The profile of %(name)s is private.") % {"name": other.name}
    return other, None


@login_required
def player(request, username: str):
    users = with_follows(User.objects.select_related("preferences", "owner"), request.user)
    shown = player_or_404(username, users.filter(is_active=True))
    if not player_stats.profile_visible(shown=shown, viewer=request.user):
        # 403, not 404: the player exists (their name is on the leaderboard and at their tables);
        # only their page is withheld.
        context = {"error": _("This profile is private.")}
        return render(request, "games/error.html", context, status=403)
    other, vs_error = _compared_with(request, shown)
    context = {
        "shown": shown,
        **ratings.player_profile(shown),
        **player_stats.player_stats(shown),
        **player_tournaments(shown),
        **({} if shown.is_bot else reviews.accuracy_history(shown, request.user)),
        "versus": player_stats.head_to_head(shown, other) if other else None,
        "vs_error": vs_error,
        "vs": request.GET.get("vs", "")[:150],
        "league_history": player_league_history(shown)[:LEAGUE_HISTORY_ROWS],
        "own_bots": [] if shown.is_bot else list(shown.own_bots.filter(is_active=True)),
        "report_form": PlayerReportForm(),
        "is_moderator": is_moderator(request.user),
    }
    return render(request, "games/player.html", context)
