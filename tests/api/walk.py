"""Walking the API (tests/api/test_api_access.py, the API's fuzz and hidden-information tests):
every operation read from its own OpenAPI schema, so that a new endpoint is walked without a
test naming it, with the scope it needs, its address and a request body it would accept."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass

import jsonschema
from django.core.serializers.json import DjangoJSONEncoder

from games.api import api
from games.models import ChatMessage, Game, Invitation, Move, Seat


@dataclass(frozen=True)
class Operation:
    method: str  # "get" or "post"
    path: str  # "/api/v1/games/{game_id}/draw"
    params: tuple[str, ...]  # its path parameters
    query: tuple[str, ...]  # its query parameters
    body: dict | None  # the JSON schema of its request body, resolved; None without one
    tags: tuple[str, ...]
    stream: bool = False  # answers server-sent events (text/event-stream)

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.path}"

    @property
    def scope(self) -> str:
        """The token scope it needs: reads `read`; writes tagged chat `chat`; others `play`."""
        if self.method == "get":
            return "read"
        return "chat" if "chat" in self.tags else "play"

    @property
    def about_a_game(self) -> bool:
        return "game_id" in self.params

    def url(self, ids: dict) -> str:
        """The address, its path parameters taken from `ids` by name (a KeyError names a new
        parameter that the walk must be given a real object for)."""
        return self.path.format(**{name: ids[name] for name in self.params})

    def sample(self, **values) -> dict | None:
        """A body of the right shape: the schema's example (or its defaults), with `values`
        (the game's version, a card in the hand...) put in where it has such a field."""
        if self.body is None:
            return None
        body = dict((self.body.get("examples") or [{}])[0])
        fields = self.body.get("properties", {})
        body.update({name: value for name, value in values.items() if name in fields})
        return body


def _resolve(schema: dict, components: dict) -> dict:
    ref = schema.get("$ref")
    return components[ref.rsplit("/", 1)[1]] if ref else schema


def operations() -> list[Operation]:
    schema = api.get_openapi_schema()
    components = schema.get("components", {}).get("schemas", {})
    found = []
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            params = op.get("parameters", [])
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            answer = op.get("responses", {}).get("200", op.get("responses", {}).get(200, {}))
            found.append(
                Operation(
                    method=method,
                    path=path,
                    params=tuple(p["name"] for p in params if p["in"] == "path"),
                    query=tuple(p["name"] for p in params if p["in"] == "query"),
                    body=_resolve(body["schema"], components) if body else None,
                    tags=tuple(op.get("tags", ())),
                    stream="text/event-stream" in answer.get("content", {}),
                )
            )
    return found


def call(client, op: Operation, ids: dict, token: str | None, body=None, **headers):
    """The operation with `token` (or none); `body` as it is when bytes or str, else as JSON
    (the sample body when None)."""
    if token is not None:
        headers.setdefault("Authorization", f"Bearer {token}")
    url = op.url(ids)
    if op.method == "get":
        return client.get(url, body or {}, headers=headers)
    if body is None:
        body = op.sample() or {}
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.post(url, data, content_type="application/json", headers=headers)


def body_of(response):
    """The answer's JSON; None for an empty one (a stream's 204 under the test client, which
    serves by WSGI: tests/test_events.py streams through ASGI)."""
    return None if response.status_code == 204 else response.json()


def allowed(op: Operation, response) -> bool:
    """A read let through: 200, or for a stream the 204 a WSGI server answers."""
    return response.status_code == 200 or (op.stream and response.status_code == 204)


def problem(response) -> str:
    """The refusal's message: a 4xx always answers `{"detail": "…"}` in JSON, a string."""
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    detail = response.json()["detail"]
    assert detail and isinstance(detail, str), response.content[:200]
    return detail


@functools.cache
def _served_schema() -> dict:
    """The schema as /api/v1/openapi.json serves it (JSON: its keys strings)."""
    return json.loads(json.dumps(api.get_openapi_schema(), cls=DjangoJSONEncoder))


def conforms(op: Operation, response) -> None:
    """The answer is one the operation's schema declares: its status is among the operation's
    responses, a 204 carries no body and no Content-Type, and a JSON body validates against
    the declared schema. (An outside schema tester found 422s the schema did not declare.)"""
    schema = _served_schema()
    declared = schema["paths"][op.path][op.method]["responses"]
    status = str(response.status_code)
    assert status in declared, f"{op} answered {status}, not in its schema ({sorted(declared)})"
    if status == "204":
        assert not response.content and "Content-Type" not in response, str(op)
        return
    media = declared[status].get("content", {}).get("application/json")
    if media is not None:
        assert response["Content-Type"].startswith("application/json"), str(op)
        document = {**media["schema"], "components": schema["components"]}
        jsonschema.validate(response.json(), document)


def leaves(data, skip=lambda key, value: False) -> Iterator[str]:
    """Every string in a JSON answer, leaving out the values for which skip(key, value) says so."""
    if isinstance(data, dict):
        for key, value in data.items():
            if not skip(key, value):
                yield from leaves(value, skip)
    elif isinstance(data, list):
        for item in data:
            if not skip(None, item):
                yield from leaves(item, skip)
    elif isinstance(data, str):
        yield data


def hands_in(data) -> list:
    """Every non-null "hand" in a JSON answer but those of finished rounds (round_results: the
    hands laid open to everyone when the round ended)."""
    if isinstance(data, dict):
        found = [data["hand"]] if data.get("hand") is not None else []
        inner = [value for key, value in data.items() if key != "round_results"]
        return found + [h for value in inner for h in hands_in(value)]
    if isinstance(data, list):
        return [h for item in data for h in hands_in(item)]
    return []


def fingerprint(games, *, new_games: bool = False) -> str:
    """All of these games that a request could change, as one hash: the games, their seats,
    moves, chat and invitations, and (unless `new_games` may be made) how many games there are."""
    ids = [game.pk for game in games]
    rows = [
        list(Game.objects.filter(pk__in=ids).order_by("pk").values()),
        list(Seat.objects.filter(game__in=ids).order_by("pk").values()),
        Move.objects.filter(game__in=ids).count(),
        list(ChatMessage.objects.filter(game__in=ids).order_by("pk").values()),
        list(Invitation.objects.filter(game__in=ids).order_by("pk").values()),
        0 if new_games else Game.objects.count(),
    ]
    return hashlib.sha256(json.dumps(rows, default=str, sort_keys=True).encode()).hexdigest()
