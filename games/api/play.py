"""The API's moves: the table as the account's seat sees it, and its draw, discard and going
out, each answered with the view the move left; resigning."""

from __future__ import annotations

from ninja import Router

from .. import services
from ..ratelimit import rate_limit_consume
from ..selectors import viewer
from ..selectors.facts import game_facts, seat_view
from .auth import AUTH, PLAY, READ
from .common import WITH_INPUT, act, game_of
from .schemas import CardIn, DrawIn, GameFacts, View

router = Router(auth=AUTH)


@router.get("/games/{game_id}/view", response={200: View, **WITH_INPUT}, tags=["play"], auth=READ)
def game_view(request, game_id: int):
    """The table as the account's seat sees it: its own hand, and the moves it may make now
    (`legal_actions`); a spectator's view has no hand."""
    return seat_view(*game_of(request, game_id))


def _move(request, game_id: int, service, **fields) -> dict:
    rate_limit_consume(user=request.user, action="move")
    result = act(request, game_id, service, **fields)
    return seat_view(*(viewer.game_as_left(result, request.user) or game_of(request, game_id)))


MOVE_ANSWERS = {200: View, **WITH_INPUT}


@router.post("/games/{game_id}/draw", response=MOVE_ANSWERS, tags=["play"], auth=PLAY)
def move_draw(request, game_id: int, body: DrawIn):
    """Draw from the stock or take the top discard. 409 when `version` is not the game's."""
    return _move(request, game_id, services.move_draw, version=body.version, source=body.source)


@router.post("/games/{game_id}/discard", response=MOVE_ANSWERS, tags=["play"], auth=PLAY)
def move_discard(request, game_id: int, body: CardIn):
    """Discard a card, ending the turn."""
    return _move(request, game_id, services.move_discard, version=body.version, card=body.card)


@router.post("/games/{game_id}/go-out", response=MOVE_ANSWERS, tags=["play"], auth=PLAY)
def move_go_out(request, game_id: int, body: CardIn):
    """Discard a card and go out: the rest of the hand must lie in melds."""
    return _move(request, game_id, services.move_go_out, version=body.version, card=body.card)


@router.post(
    "/games/{game_id}/resign", response={200: GameFacts, **WITH_INPUT}, tags=["play"], auth=PLAY
)
def game_resign(request, game_id: int):
    """Resign: the account ranks last and a bot plays its seat to the end."""
    act(request, game_id, services.game_resign)
    return game_facts(*game_of(request, game_id))
