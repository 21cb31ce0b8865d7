"""The API's chat: a game's messages, read and written as the pages let the account."""

from __future__ import annotations

from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.errors import HttpError

from ..chat import chat_post
from ..ratelimit import rate_limit_consume
from ..selectors import chat
from .auth import AUTH, CHAT, READ
from .common import WITH_INPUT, game_of
from .schemas import ChatIn, ChatLine

router = Router(auth=AUTH)


@router.get(
    "/games/{game_id}/chat", response={200: list[ChatLine], **WITH_INPUT}, tags=["chat"], auth=READ
)
def chat_read(request, game_id: int, after: int = 0):
    """The chat's messages after message `after` (0: all), for those who may read it."""
    game, seat = game_of(request, game_id)
    lines = chat.chat(game, seat, request.user, limit=None)
    if lines is None:
        raise HttpError(403, _("Only the players of this game can read its chat."))
    return [
        {"seq": line["message"].seq, "name": line["name"], "text": line["text"],
         "at": line["message"].created_at, "mine": line["mine"]}
        for line in lines["lines"]
        if line["message"].seq > after
    ]  # fmt: skip


@router.post(
    "/games/{game_id}/chat", response={201: ChatLine, **WITH_INPUT}, tags=["chat"], auth=CHAT
)
def chat_write(request, game_id: int, body: ChatIn):
    """Write in the game's chat (players, and spectators once the host opened it to them)."""
    game_of(request, game_id)
    rate_limit_consume(user=request.user, action="chat", scope=str(game_id))
    message = chat_post(game_id=game_id, user=request.user, text=body.text)
    line = {
        "seq": message.seq, "name": request.user.name, "text": message.text,
        "at": message.created_at, "mine": True,
    }  # fmt: skip
    return Status(201, line)
