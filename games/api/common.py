"""What every part of the API shares: the refusals an operation declares, the game a request is
about (as the pages let the token's account look at it), a write service run as the pages run
it (selectors.viewer: at a game it may not look at, any refusal is a 404), and a 204."""

from __future__ import annotations

from django.http import HttpResponse

from ..models import Game, Seat
from ..selectors import viewer
from .schemas import Problem

REFUSALS = {400: Problem, 401: Problem, 403: Problem, 404: Problem, 409: Problem, 429: Problem}
# An operation with a path, query or body parameter answers 422 when one is not what it takes.
WITH_INPUT = {**REFUSALS, 422: Problem}
PER_PAGE = 50


def game_of(request, game_id: int) -> tuple[Game, Seat | None]:
    """The game with its seats, if the token's account may look at it as the pages let it
    (its seat, a listed game, a friends-only game of a host who follows it); else a 404 that
    tells nothing."""
    return viewer.watched(game_id, request.user)


def act(request, game_id: int, service, **fields):
    """Run a write service for the token's account, as the pages' views do."""
    return viewer.as_viewer(
        service, game_id=game_id, user=request.user, watch_code=fields.get("invite_code"), **fields
    )


def no_content() -> HttpResponse:
    """A 204 as HTTP has it: no body, so no Content-Type (ninja's would say JSON)."""
    response = HttpResponse(status=204)
    del response["Content-Type"]
    return response
