"""The public API at /api/v1/ (docs/api.md): django-ninja writes its OpenAPI schema
(/api/v1/openapi.json) and serves its docs page (/api/v1/docs) from its own bundled files.

Its routers, by concern, each over the same selectors and services as the pages (so it reaches
no more than they do, moves under the same lock and version check, and never carries a card its
viewer may not see): `account`, `games`, `play` (the seat's view and its moves), `chat`; what
they share is in `common`, the token and its scopes in `auth`."""

from __future__ import annotations

from django.http import Http404
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, ValidationError

from ..errors import GameError
from . import account, chat, games, play

DESCRIPTION = """\
Play Three Thirteen from a program: read your games and their tables as you see them, move, chat.

Every request carries a personal access token (Settings → API tokens), as
`Authorization: Bearer tt_…`; its scopes say what it may do (`read`, `play`, `chat`). A move sends
the game's `version` as you last saw it: 409 when the game has moved on since. Refusals are
`{"detail": "…"}` with a 4xx; a 429 says in `Retry-After` how many seconds to wait.
Cards are tokens, rank then suit: `7H`, `10D`, `QS`, `AC`, a joker `JK`; with two decks or
more, a further copy of a card ends in its number (`7H.1`, `JK.1`).
"""

api = NinjaAPI(
    title="Three Thirteen by post",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api",
    docs_url="/docs",
)
for part in (account, games, play, chat):
    api.add_router("/", part.router)


@api.exception_handler(GameError)
def game_error(request, error: GameError):
    response = api.create_response(request, {"detail": error.message}, status=error.status)
    if error.retry_after:
        response["Retry-After"] = str(error.retry_after)
    return response


@api.exception_handler(Http404)
def not_found(request, error):
    return api.create_response(request, {"detail": str(error) or "Not found."}, status=404)


@api.exception_handler(AuthenticationError)
def unauthenticated(request, error):
    detail = "Send a valid personal access token: Authorization: Bearer tt_…"
    response = api.create_response(request, {"detail": detail}, status=401)
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(ValidationError)
def invalid(request, error: ValidationError):
    """A parameter or a body that is not what the operation takes: 422, in the one shape of every
    refusal, `{"detail": "…"}`, naming the fields (ninja's own is a list of pydantic's errors)."""
    return api.create_response(request, {"detail": invalid_text(error.errors)}, status=422)


def invalid_text(errors: list[dict]) -> str:
    """`body.version: Input should be a valid integer; query.filter: Input should be …`."""
    parts = []
    for found in errors[:5]:
        where = ".".join(str(step) for step in found.get("loc", ()) if step != "payload")
        parts.append(f"{where}: {found.get('msg', 'not valid')}" if where else found.get("msg", ""))
    return "; ".join(parts) or "The request is not what this operation takes."
