"""Following players: the writes. Who is followed shapes the friends page (selectors/friends.py)
and who may see and join a friends-only game (services.game_join, selectors/viewer.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import User

from .errors import GameError
from .models import Follow
from .selectors.player_stats import profile_visible


def follow_create(*, follower: User, followee: User) -> Follow:
    """Follow a player; following them again changes nothing. Only people: a bot is always
    there (any new game seats one in a click), never waits for a game, cannot be invited and never
    hosts, so following one would show nothing on any page. Only a player whose page the follower
    may see: a hidden one, only after sharing a game with them."""
    if followee.pk == follower.pk:
        raise GameError(_("You cannot follow yourself."))
    if followee.is_bot:
        raise GameError(_("Bots are not followed: a new game can seat one whenever you like."))
    if not followee.is_active:
        raise GameError(_("There is no such player."), status=404)
    if not profile_visible(shown=followee, viewer=follower):  # answered as the page answers
        raise GameError(_("This profile is private."), status=403)
    follow, _created = Follow.objects.get_or_create(follower=follower, followee=followee)
    return follow


def follow_delete(*, follower: User, followee: User) -> None:
    """Stop following a player; not following them already changes nothing."""
    Follow.objects.filter(follower=follower, followee=followee).delete()
