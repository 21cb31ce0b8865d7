"""Reads for a game's chat: the messages a viewer may read (never a muted player's), the new ones
since their last visit, and the chat at a step of the replay. Each in a fixed number of queries
however long the chat."""

from __future__ import annotations

from typing import Any, TypedDict

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.zones import zoned

from ..models import ChatMessage, ChatReport, Game, Mute, Seat
from .viewer import can_chat

HIDDEN = _("(hidden by a moderator)")
TABLE_CHAT_MESSAGES = 20  # the table shows the latest; the chat page shows them all


class Muted(TypedDict):
    muted: int


def muted_by(user: User) -> QuerySet[Mute, Muted]:
    """The players `user` muted, as a subquery."""
    return Mute.objects.filter(muter=user).values("muted")


def _readable(game: Game, user: User) -> QuerySet[ChatMessage]:
    """The game's messages the viewer reads, each marked `reported` if the viewer reported it."""
    messages = ChatMessage.objects.filter(game=game)
    if user.is_authenticated:
        mine = ChatReport.objects.filter(message=OuterRef("pk"), reporter=user)
        messages = messages.exclude(author__in=muted_by(user)).annotate(reported=Exists(mine))
    return messages.select_related("author").only(
        "seq",
        "text",
        "version",
        "created_at",
        "hidden_at",
        "author__username",
        "author__display_name",
        "author__name_change_due",
    )


def _line(message: ChatMessage, user: User) -> dict[str, Any]:
    """A message as shown: a message the moderators hid keeps its place, not its text."""
    return {
        "message": message,
        "name": message.author.name,
        "mine": message.author_id == user.pk,
        "text": str(HIDDEN) if message.hidden_at else message.text,
        "hidden": message.hidden_at is not None,
        "reported": getattr(message, "reported", False),  # by the viewer
    }


def chat(
    game: Game, seat: Seat | None, user: User, *, limit: int | None = TABLE_CHAT_MESSAGES
) -> dict[str, Any] | None:
    """The chat as the viewer sees it, or None when they may not read it: the latest `limit`
    messages (all with None), oldest first, whether there are earlier ones, and the players the
    viewer muted (to show them again). Two queries."""
    if not can_chat(game, seat):
        return None
    messages = _readable(game, user).order_by("-seq")
    if limit is not None:
        messages = messages[: limit + 1]
    lines = [_line(m, user) for m in messages]
    more = limit is not None and len(lines) > limit
    lines = lines[:limit][::-1] if limit is not None else lines[::-1]
    muted = []
    if user.is_authenticated:
        muted = list(
            Mute.objects.filter(muter=user)
            .select_related("muted")
            .only("muted__username", "muted__display_name", "muted__name_change_due")
            .order_by("created_at")[:20]
        )
    may_write = user.is_authenticated and not user.is_site_bot and game.status == Game.Status.ACTIVE
    # A player a moderator muted reads the chat, and is told why there is no box to write in.
    silenced = may_write and user.is_chat_muted(timezone.now())
    return {
        "lines": lines,
        "more": more,
        "muted": [m.muted for m in muted],
        "can_write": may_write and not silenced,
        "silenced": _("A moderator muted you in the chats until %(until)s.")
        % {"until": zoned(user.chat_muted_until)}
        if silenced
        else "",
        "is_host": user.pk == game.created_by_id,
    }


def news(chat_view: dict[str, Any] | None, seat: Seat | None) -> list[dict[str, Any]]:
    """The messages of the table's chat the player has not seen (the others' only), for the
    table's "since your last visit"."""
    if chat_view is None or seat is None:
        return []
    return [
        line
        for line in chat_view["lines"]
        if line["message"].seq > seat.seen_chat and not line["mine"]
    ]


def has_news(user: User) -> Exists:
    """For a query of the player's seats: whether a message they have not seen waits in the
    seat's game (from another player they did not mute)."""
    return Exists(
        ChatMessage.objects.filter(game=OuterRef("game_id"), seq__gt=OuterRef("seen_chat"))
        .exclude(author=user)
        .exclude(author__in=muted_by(user))
    )


def replay_chat(game: Game, seat: Seat | None, user: User, step: int) -> dict[str, Any] | None:
    """The chat as it stood after `step` moves of the replay: the messages written by then,
    those written at this very step marked."""
    if not can_chat(game, seat):
        return None
    messages = _readable(game, user).filter(version__lte=step).order_by("-seq")
    lines = [_line(m, user) for m in messages[:TABLE_CHAT_MESSAGES]][::-1]
    for line in lines:
        line["now"] = line["message"].version == step
    return {"lines": lines}
