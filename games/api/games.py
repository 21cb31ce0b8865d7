"""The API's games: the account's lists, the lobby, invitations, a new game, a game's facts
and history, joining, resigning, and its stream of changes."""

from __future__ import annotations

from typing import Literal

from django.core.handlers.asgi import ASGIRequest
from ninja import Router, Status

from .. import invitations as invitation_services
from .. import services
from ..engine import Rules
from ..events import event_stream, look_then_release
from ..models import Game
from ..newgame import new_game
from ..selectors import history, lists
from ..selectors.facts import game_facts
from .auth import AUTH, PLAY, READ
from .common import PER_PAGE, REFUSALS, WITH_INPUT, act, game_of, no_content
from .schemas import GameFacts, GameList, GameRow, HistoryLine, JoinIn, NewGameIn
from .schemas import Invitation as InvitationOut

router = Router(auth=AUTH)
GameFilter = Literal["my_turn", "waiting", "open", "finished"]


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
    return game_facts(*game_of(request, seat.game_id))


@router.post("/invitations/{invitation_id}/decline", response={204: None, **WITH_INPUT},
             tags=["games"], auth=PLAY)  # fmt: skip
def invitation_decline(request, invitation_id: int):
    invitation_services.invitation_decline(invitation_id=invitation_id, user=request.user)
    return no_content()


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
    return Status(201, game_facts(*game_of(request, game.pk)))


@router.get("/games/{game_id}", response={200: GameFacts, **WITH_INPUT}, tags=["games"], auth=READ)
def game(request, game_id: int):
    """What anyone at the table sees of the game: seats, cards held, melds shown, scores, whose
    move. Never a hand."""
    return game_facts(*game_of(request, game_id))


@router.get("/games/{game_id}/history", response={200: list[HistoryLine], **WITH_INPUT},
            tags=["games"], auth=READ)  # fmt: skip
def game_history(request, game_id: int):
    """Every move in words, as the account may see it (the history page's)."""
    game, seat = game_of(request, game_id)
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
    act(request, game_id, services.game_join, invite_code=body.invite_code)
    return game_facts(*game_of(request, game_id))


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
        game_of, request, game_id
    )  # and the token's look, given back
    if not isinstance(request, ASGIRequest) or game.status in (
        Game.Status.FINISHED,
        Game.Status.CANCELLED,
    ):
        return no_content()
    return await event_stream(game_id, viewer=f"user:{request.user.pk}")
