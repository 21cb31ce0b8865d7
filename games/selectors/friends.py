"""Reads for following: a player page's follow button, and the friends page (the players one
follows, who follows back, and the open games they wait in that the viewer may see). Public-ish
facts only: whose turn it is anywhere, or an unlisted game, never shows."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Count, Exists, F, OuterRef, QuerySet, Value
from django.db.models.functions import Coalesce, Lower, NullIf

from accounts.models import User

from ..models import Follow, Game, Seat
from .viewer import listed_for

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations  # django-stubs' own: a dev dependency

WAITING_GAMES_SHOWN = 100


class Follows(TypedDict):
    followed: bool
    follows_me: bool


def with_follows(users: QuerySet[User], viewer: User) -> QuerySet[WithAnnotations[User, Follows]]:
    """Users annotated with `followed` (the viewer follows them) and `follows_me` (they follow the
    viewer), in the same query."""
    viewer_id = viewer.pk if viewer.is_authenticated else None
    return users.annotate(
        followed=Exists(Follow.objects.filter(follower_id=viewer_id, followee_id=OuterRef("pk"))),
        follows_me=Exists(Follow.objects.filter(follower_id=OuterRef("pk"), followee_id=viewer_id)),
    )


def friends(user: User) -> list[dict[str, Any]]:
    """The people `user` follows, by name, each with whether they follow back and the open games
    with a free seat they sit at that `user` could find in the lobby; three queries in all."""
    people = list(
        with_follows(User.objects.filter(followers__follower=user, is_active=True), user).order_by(
            Lower(Coalesce(NullIf("display_name", Value("")), "username")), "pk"
        )
    )
    games = _waiting_games(user, [person.pk for person in people])
    by_friend = defaultdict(list)
    for game in games:
        game.mine = any(seat.user_id == user.pk for seat in game.seats.all())
        for seat in game.seats.all():
            by_friend[seat.user_id].append(game)
    return [
        {"user": person, "mutual": person.follows_me, "waiting": by_friend[person.pk]}
        for person in people
    ]


def _waiting_games(user: User, friend_ids: list[int]) -> list[Game]:
    """Open games with a free seat, at which one of these players sits, that `user` may find."""
    if not friend_ids:
        return []
    friend_seated = Seat.objects.filter(game=OuterRef("pk"), user_id__in=friend_ids)
    games = (
        Game.objects.filter(listed_for(user), Exists(friend_seated), status=Game.Status.OPEN)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("seat_count"))
        .only("seat_count", "time_per_move_days", "created_at", "friends_only", "is_public")
        .prefetch_related("seats")
        .order_by("-created_at")[:WAITING_GAMES_SHOWN]
    )
    return list(games)
