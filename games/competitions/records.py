"""Who may enter a competition by their record: a player who let too many games time out (the
autopilot took over, then dropped them: games/deadlines/timeouts.py) may be kept out of quick
play (settings.QUICK_PLAY_MAX_ABANDONED_PERCENT) and of the leagues and tournaments whose host set
a limit. The player page shows the same two counts (games/selectors/player_stats.py)."""

from __future__ import annotations

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from accounts.models import User

from ..errors import GameError
from ..models import Seat

# A record is read once it holds this many games ended (played to the end, or abandoned): one
# unlucky week does not keep a newcomer out.
MIN_GAMES = 5
# The limits a host may choose, in percent of the games ended; None: anyone.
LIMIT_CHOICES = (50, 25, 10)


def abandonment(user: User) -> tuple[int, int]:
    """(games played to the end, games abandoned) in one query."""
    counts = Seat.objects.filter(user=user).aggregate(
        completed=Count("pk", filter=Q(finished_at__isnull=False, dropped=False)),
        abandoned=Count("pk", filter=Q(dropped=True)),
    )
    return counts["completed"], counts["abandoned"]


def require_record(user: User, max_percent: int | None) -> None:
    """GameError (403) when more than `max_percent` of the player's games ended were abandoned."""
    if max_percent is None or user.is_bot:
        return
    completed, abandoned = abandonment(user)
    ended = completed + abandoned
    if ended < MIN_GAMES or abandoned * 100 <= max_percent * ended:
        return
    raise GameError(
        _(
            "Open to players who abandoned at most %(limit)d%% of their games; you abandoned "
            "%(abandoned)d of %(ended)d. Play your games to the end and it opens again."
        )
        % {"limit": max_percent, "abandoned": abandoned, "ended": ended},
        status=403,
    )
