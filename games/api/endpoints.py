"""The API's endpoints (docs/api.md): each checks the token's scope, then calls the same
selectors and services as the pages, so that it reaches no more than they do, moves under the
same lock and version check, and never carries a card its viewer may not see (the table is the
engine's PlayerView of the viewer's seat)."""

from __future__ import annotations

from typing import Literal

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.errors import HttpError

from .. import invitations as invitation_services
from .. import services
from ..chat import chat_post
from ..engine import GameState, Rules
from ..errors import GameError
from ..events import event_stream, look_then_release
from ..models import Game, Seat
from ..newgame import new_game
from ..ratelimit import rate_limit_consume
from ..ratings import rating_of
from ..selectors import chat, history, lists, viewer
from .auth import AUTH, CHAT, PLAY, READ
from .schemas import (
    CardIn,
    ChatIn,
    ChatLine,
    DrawIn,
    GameFacts,
    GameList,
    GameRow,
    HistoryLine,
    JoinIn,
    Me,
    NewGameIn,
    Problem,
    View,
)
from .schemas import Invitation as InvitationOut

router = Router(auth=AUTH)
REFUSALS = {400: Problem, 401: Problem, 403: Problem, 404: Problem, 409: Problem, 429: Problem}
# An operation with a path, query or body parameter answers 422 when one is not what it takes.
WITH_INPUT = {**REFUSALS, 422: Problem}
GameFilter = Literal["my_turn", "waiting", "open", "finished"]
PER_PAGE = 50


def _player(user) -> dict:
    shown = rating_of(user)
    return {
        "id": user.pk,
        "username": user.username,
        "name": user.name,
        "is_bot": user.is_bot,
        "owner": user.owner.username if user.owner_id else None,
        "rating": shown.value,
        "provisional": shown.provisional,
    }


def _game_of(request, game_id: int) -> tuple[Game, Seat | None]:
    """The game with its seats, if the token's account may look at it as the pages let it
    (its seat, a listed game, a friends-only game of a host who follows it); else a 404 that
    tells nothing."""
    game, seat = viewer.game_for_viewer(game_id, request.user)
    if game is None or not viewer.can_watch(game, seat):
        raise HttpError(404, _("There is no such game."))
    return game, seat


def _act(request, game_id: int, service, **fields):
    """Run a write service for the account, as the pages' views do: at a game it may not look
    at, any refusal is that there is no such game (404), whatever the service said (that the
    account has no seat, that the game is not in play...): it would tell of the game."""
    try:
        return service(game_id=game_id, user=request.user, **fields)
    except GameError:
        game, seat = viewer.game_for_viewer(game_id, request.user)
        if game is None or not viewer.can_watch(game, seat, fields.get("invite_code")):
            raise HttpError(404, _("There is no such game.")) from None
        raise


# -- the account -------------------------------------------------------------------------------


@router.get("/me", response={200: Me, **REFUSALS}, tags=["account"], auth=READ)
def me(request):
    """The account the token acts for."""
    user = request.user
    return {
        **_player(user),
        "language": user.language,
        "scopes": sorted(request.api_token.scope_set),
        "bots": list(user.own_bots.order_by("pk").values_list("username", flat=True)),
    }


@router.get("/games", response={200: GameList, **WITH_INPUT}, tags=["games"], auth=READ)
def games(request, filter: GameFilter = "my_turn", page: int = 1):
    """The account's games, as its dashboard lists them: `my_turn` (waiting on its move, most
    urgent first), `waiting` (in play, another's move), `open` (not started), `finished`
    (newest first, a page at a time)."""
    board = lists.dashboard(request.user, page=str(page) if filter == "finished" else None)
    rows = {
        "my_turn": board["my_turn"],
        "waiting": board["waiting"],
        "open": board["open_games"],
        "finished": board["finished"],
    }[filter]
    pages = board["finished_page"].paginator.num_pages if filter == "finished" else 1
    return {
        "items": [_row(row) for row in rows],
        "page": board["finished_page"].number if filter == "finished" else 1,
        "pages": pages,
    }


def _row(row: dict) -> dict:
    game = row["game"]
    return {
        "id": game.pk,
        "status": game.status,
        "my_turn": row["my_turn"],
        "seat": row["seat"].index,
        "players": row["players"],
        "round": row["round"],
        "rounds": row["rounds"],
        "deadline": game.deadline if game.status == Game.Status.ACTIVE else None,
        "place": row["place"],
        "score": row["score"],
    }


@router.get("/lobby", response={200: list[GameRow], **REFUSALS}, tags=["games"], auth=READ)
def lobby(request):
    """Games waiting for players that the account may join (the lobby's)."""
    rows = []
    for game in lists.lobby(request.user)[:PER_PAGE]:
        rows.append(
            {
                "id": game.pk,
                "status": game.status,
                "my_turn": False,
                "seat": -1,
                "players": [s.user.name for s in game.seats.all()],
                "round": 1,
                "rounds": Rules.from_dict(game.rules).round_count,
                "deadline": None,
                "place": None,
                "score": None,
            }
        )
    return rows


@router.get(
    "/invitations", response={200: list[InvitationOut], **REFUSALS}, tags=["games"], auth=READ
)
def invitations(request):
    """Invitations waiting on the account's answer."""
    return [
        {
            "id": item["invitation"].pk,
            "game": item["game"].pk,
            "invited_by": item["invitation"].invited_by.name,
            "players": item["players"],
        }
        for item in lists.dashboard(request.user)["invitations"]
    ]


@router.post("/invitations/{invitation_id}/accept", response={200: GameFacts, **WITH_INPUT},
             tags=["games"], auth=PLAY)  # fmt: skip
def invitation_accept(request, invitation_id: int):
    """Take the seat offered; the game as it then stands."""
    seat = invitation_services.invitation_accept(invitation_id=invitation_id, user=request.user)
    return _facts(*_game_of(request, seat.game_id))


@router.post("/invitations/{invitation_id}/decline", response={204: None, **WITH_INPUT},
             tags=["games"], auth=PLAY)  # fmt: skip
def invitation_decline(request, invitation_id: int):
    invitation_services.invitation_decline(invitation_id=invitation_id, user=request.user)
    return no_content()


def no_content() -> HttpResponse:
    """A 204 as HTTP has it: no body, so no Content-Type (ninja's would say JSON)."""
    response = HttpResponse(status=204)
    del response["Content-Type"]
    return response


# -- a game ------------------------------------------------------------------------------------


@router.post("/games", response={201: GameFacts, **WITH_INPUT}, tags=["games"], auth=PLAY)
def game_create(request, body: NewGameIn):
    """A new game, as the New game form makes it: the account takes seat 1."""
    settings = new_game(
        seat_count=body.seat_count,
        time_per_move_days=body.time_per_move_days or None,
        max_timeouts=body.max_timeouts,
        visibility=body.visibility,
        rounds=body.rounds,
        variants=body.variants,
        start_when_full=body.start_when_full,
        bots=body.bots,
        seats=body.seats,
    )
    game = services.game_create(creator=request.user, **settings)
    return Status(201, _facts(*_game_of(request, game.pk)))


@router.get("/games/{game_id}", response={200: GameFacts, **WITH_INPUT}, tags=["games"], auth=READ)
def game(request, game_id: int):
    """What anyone at the table sees of the game: seats, cards held, melds shown, scores, whose
    move. Never a hand."""
    return _facts(*_game_of(request, game_id))


def _facts(game: Game, seat: Seat | None) -> dict:
    seats = list(game.seats.all())
    public = GameState.from_dict(game.state).view(None) if game.state else None
    return {
        "id": game.pk,
        "status": game.status,
        "version": game.version,
        "seat_count": game.seat_count,
        "to_move": game.to_move_seat if game.status == Game.Status.ACTIVE else None,
        "round": game.round_index + 1,
        "rounds": Rules.from_dict(game.rules).round_count,
        "wild_rank": public.wild_rank if public else None,
        "top_discard": public.top_discard.token if public and public.top_discard else None,
        "stock_size": public.stock_size if public else None,
        "chat_count": viewer.chat_version(game, seat),
        "time_per_move_days": game.time_per_move_days,
        "deadline": game.deadline,
        "rated": game.rated,
        "listed": game.is_public,
        "end_reason": game.end_reason,
        "scores": [list(r) for r in public.scores] if public else [],
        "winners": list(public.winners) if public and game.status == Game.Status.FINISHED else [],
        "seats": [
            {
                "index": s.index,
                "player": _player(s.user),
                "cards": public.card_counts[s.index] if public else 0,
                "total": public.totals[s.index] if public else 0,
                "melds": [[c.token for c in meld] for meld in public.shown_melds[s.index]]
                if public
                else [],
                "resigned": s.resigned,
                "autopilot": s.autopilot,
            }
            for s in seats
        ],
    }


@router.get("/games/{game_id}/view", response={200: View, **WITH_INPUT}, tags=["play"], auth=READ)
def game_view(request, game_id: int):
    """The table as the account's seat sees it: its own hand, and the moves it may make now
    (`legal_actions`); a spectator's view has no hand."""
    return _view(*_game_of(request, game_id))


def _view(game: Game, seat: Seat | None) -> dict:
    if not game.state:
        raise HttpError(409, _("This game has not started yet."))
    view = GameState.from_dict(game.state).view(seat.index if seat else None)
    data = view.to_dict()
    if game.status != Game.Status.ACTIVE or (seat is not None and seat.resigned):
        data["legal_actions"] = []
    if game.status != Game.Status.ACTIVE:
        data["to_move"] = None
    return {**data, "game": game.pk, "version": game.version}


@router.get("/games/{game_id}/history", response={200: list[HistoryLine], **WITH_INPUT},
            tags=["games"], auth=READ)  # fmt: skip
def game_history(request, game_id: int):
    """Every move in words, as the account may see it (the history page's)."""
    game, seat = _game_of(request, game_id)
    return [
        {"seq": r["seq"], "round": r["round"], "text": r["text"], "at": r["at"],
         "by_bot": r["by_bot"]}
        for r in history.history(game, seat)
    ]  # fmt: skip


@router.post(
    "/games/{game_id}/join", response={200: GameFacts, **WITH_INPUT}, tags=["games"], auth=PLAY
)
def game_join(request, game_id: int, body: JoinIn):
    """Take a free seat (a private game: with its invitation code, or an invitation by name)."""
    _act(request, game_id, services.game_join, invite_code=body.invite_code)
    return _facts(*_game_of(request, game_id))


def _move(request, game_id: int, service, **fields) -> dict:
    rate_limit_consume(user=request.user, action="move")
    result = _act(request, game_id, service, **fields)
    return _view(*(viewer.game_as_left(result, request.user) or _game_of(request, game_id)))


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
    _act(request, game_id, services.game_resign)
    return _facts(*_game_of(request, game_id))


EVENT_STREAM_DOC = {
    "responses": {
        200: {
            "description": "Server-sent events: `changed` each time the game changes.",
            "content": {
                "text/event-stream": {
                    "schema": {"type": "string"},
                    "example": 'event: changed\ndata: {"v": 18, "t": 1764840000.5}\n\n',
                }
            },
        }
    }
}


@router.get("/games/{game_id}/events", response={204: None, **WITH_INPUT}, tags=["games"],
            openapi_extra=EVENT_STREAM_DOC, auth=READ)  # fmt: skip
async def game_events(request, game_id: int):
    """A stream of the game's changes (server-sent events): `changed` with the game's new
    `version` each time a move, a start, an end or a chat message changes it, a keep-alive line
    between, for five minutes (then reconnect). Fetch the view when it says so. 204 for a game
    over, and where the site is served without ASGI (then poll)."""
    game, _seat = await look_then_release(
        _game_of, request, game_id
    )  # and the token's look, given back
    if not isinstance(request, ASGIRequest) or game.status in (
        Game.Status.FINISHED,
        Game.Status.CANCELLED,
    ):
        return no_content()
    return await event_stream(game_id, viewer=f"user:{request.user.pk}")


# -- chat --------------------------------------------------------------------------------------


@router.get(
    "/games/{game_id}/chat", response={200: list[ChatLine], **WITH_INPUT}, tags=["chat"], auth=READ
)
def chat_read(request, game_id: int, after: int = 0):
    """The chat's messages after message `after` (0: all), for those who may read it."""
    game, seat = _game_of(request, game_id)
    lines = chat.chat(game, seat, request.user, limit=None)
    if lines is None:
        raise HttpError(403, _("Only the players of this game can read its chat."))
    return [
        {"seq": line["message"].seq, "name": line["name"], "text": line["message"].text,
         "at": line["message"].created_at, "mine": line["mine"]}
        for line in lines["lines"]
        if line["message"].seq > after
    ]  # fmt: skip


@router.post(
    "/games/{game_id}/chat", response={201: ChatLine, **WITH_INPUT}, tags=["chat"], auth=CHAT
)
def chat_write(request, game_id: int, body: ChatIn):
    """Write in the game's chat (players, and spectators once the host opened it to them)."""
    _game_of(request, game_id)
    rate_limit_consume(user=request.user, action="chat", scope=str(game_id))
    message = chat_post(game_id=game_id, user=request.user, text=body.text)
    line = {
        "seq": message.seq, "name": request.user.name, "text": message.text,
        "at": message.created_at, "mine": True,
    }  # fmt: skip
    return Status(201, line)
