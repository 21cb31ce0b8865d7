"""The dashboard's page, whichever view shows it (the home page, or an invitation's answer that
was refused): the player's games and invitations (lists.dashboard), quick play's form and the
player's open seeks. One place, so that no view shows the page with a part missing."""

from __future__ import annotations

from typing import Any

from accounts.models import User

from ..forms import QuickPlayForm
from . import lists
from .seeks import seeks_open

# The page asks this often, while it is shown, whether its invitations changed (a 204 from one
# small query while they did not): a rematch offered meanwhile shows without a reload.
INVITATIONS_POLL_SECONDS = 15


def dashboard_page(user: User, page: str | None = None) -> dict[str, Any]:
    """Everything templates/games/dashboard.html reads, for `page` of the finished games."""
    return {
        **lists.dashboard(user, page=page),
        "quick_form": QuickPlayForm(),
        "seeks": seeks_open(user),
        "invitations_poll_seconds": INVITATIONS_POLL_SECONDS,
    }
