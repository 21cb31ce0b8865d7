"""Which game and seat a request is about, and whether its viewer may look at it."""

from __future__ import annotations

from accounts.models import User

from ..models import Game, Seat


def game_for_viewer(game_id: int, user: User) -> tuple[Game, Seat | None]:
    game = Game.objects.filter(pk=game_id).select_related("created_by").first()
    if game is None:
        return None, None
    seat = None
    if user.is_authenticated:
        seat = game.seats.filter(user=user).first()
    return game, seat


def game_for_poll(game_id: int, user: User) -> tuple[Game | None, Seat | None]:
    """The little a poll needs (version, status, who may look), in one query for a player."""
    fields = ("version", "status", "is_public", "invite_code", "chat_count", "chat_spectators")
    if user.is_authenticated:
        seat = (
            Seat.objects.filter(game_id=game_id, user=user)
            .select_related("game")
            .only("id", "index", "last_seen_at", *(f"game__{f}" for f in fields))
            .first()
        )
        if seat is not None:
            return seat.game, seat
    return Game.objects.filter(pk=game_id).only(*fields).first(), None


def can_watch(game: Game, seat: Seat | None, invite_code: str | None = None) -> bool:
    return seat is not None or game.is_public or invite_code == game.invite_code


def can_chat(game: Game, seat: Seat | None) -> bool:
    """Whether the viewer (who may watch the game) reads and writes its chat: its players, and
    spectators once the host opened it to them."""
    return seat is not None or game.chat_spectators


def chat_version(game: Game, seat: Seat | None) -> int:
    """The chat's part of the table's version, for this viewer: 0 for one who may not read it
    (so that the page tells them nothing of it)."""
    return game.chat_count if can_chat(game, seat) else 0
