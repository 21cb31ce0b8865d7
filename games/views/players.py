"""A player named in an address, for the pages about them (their page, following them, reporting
them)."""

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import player_named


def player_or_404(username: str, users: QuerySet[User] | None = None) -> User:
    """The player called `username` among `users` (the active accounts by default): a 404 that
    says so if there is none."""
    users = User.objects.filter(is_active=True) if users is None else users
    if (player := player_named(username, users)) is None:
        raise Http404(_("There is no such player."))
    return player
