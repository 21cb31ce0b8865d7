"""The API's OpenAPI schema is valid, and its docs page lists every endpoint with an example of
what it takes and what it answers."""

import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from openapi_spec_validator import validate

from games.api import api

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema():
    """As /api/v1/openapi.json serves it (JSON: its keys strings)."""
    return json.loads(json.dumps(api.get_openapi_schema(), cls=DjangoJSONEncoder))


def _resolve(schema, node):
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].split("/")[-1]]
    return node


def _has_example(schema, node) -> bool:
    node = _resolve(schema, node)
    if node.get("type") == "array":
        return _has_example(schema, node["items"])
    return bool(node.get("examples") or node.get("example"))


def _operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_the_schema_is_valid_openapi(client, schema):
    validate(schema)
    served = client.get("/api/v1/openapi.json")
    assert served.status_code == 200 and served.json()["paths"].keys() == schema["paths"].keys()


def test_every_operation_is_described_with_examples(schema):
    operations = list(_operations(schema))
    assert len(operations) >= 17
    for path, method, operation in operations:
        assert operation.get("description") or operation.get("summary"), (method, path)
        assert operation.get("security"), (method, path)  # every one needs a token
        answers = {code: a for code, a in operation["responses"].items() if code.startswith("2")}
        for code, answer in answers.items():
            if code == "204":
                continue
            for media in answer["content"].values():  # JSON, or the events' text/event-stream
                assert media.get("example") or _has_example(schema, media["schema"]), (
                    method, path, code,
                )  # fmt: skip
        if "requestBody" in operation:
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            assert _has_example(schema, body), (method, path, "request")


def test_the_docs_page_is_served_from_the_sites_own_files(client):
    page = client.get("/api/v1/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "swagger-ui-bundle.js" in html and "//cdn" not in html and "unpkg" not in html


def test_every_operation_answers_only_what_its_schema_declares(client):
    """Each operation walked as the player to move with every scope, with its sample body, with a
    body of the wrong shape, and with a wrong method: the status is declared in the schema, a
    JSON body validates against it, a 204 has no body nor Content-Type, and a 405 is JSON."""
    from tests.api.helpers import token_for
    from tests.api.walk import call, conforms, operations, problem
    from tests.factories import UserFactory, started_game

    game = started_game([UserFactory(), UserFactory()], is_public=False)
    token = token_for(game.seats.get(index=game.to_move_seat).user)
    ids = {"game_id": game.pk, "invitation_id": 10**9}
    for op in operations():
        if op.stream:
            continue  # its 204 under WSGI, its stream under ASGI: tests/test_events.py
        conforms(op, call(client, op, ids, token))
        if op.body is not None:
            wrong = call(client, op, ids, token, {name: [] for name in op.body["properties"]})
            assert wrong.status_code == 422, (str(op), wrong.content[:200])
            assert problem(wrong).startswith("body.")
            conforms(op, wrong)
        other = client.put(op.url(ids), headers={"Authorization": f"Bearer {token}"})
        assert other.status_code == 405 and other["Content-Type"] == "application/json"
        assert "not allowed" in problem(other) and other["Allow"]


def test_a_declined_invitation_is_a_204_without_a_body_or_a_content_type(client):
    from games.invitations import game_invite
    from tests.api.helpers import Api, token_for
    from tests.factories import GameFactory, UserFactory

    host, guest = UserFactory(), UserFactory()
    waiting = GameFactory(created_by=host, seat_count=3)
    invitation = game_invite(game_id=waiting.pk, user=host, who=guest.username)
    answer = Api(client, token_for(guest)).post(f"/invitations/{invitation.pk}/decline")
    assert answer.status_code == 204 and answer.content == b""
    assert "Content-Type" not in answer


# The schema says what validation enforces: a body the schema refuses, the API refuses for its
# shape (422), and a body it takes, the API takes for its shape. These the API refused with a
# 400 (or took) while its schema said any integer, any string, 0 for a boolean.
NEW_GAME, CHAT, DISCARD = (
    "/api/v1/games",
    "/api/v1/games/{game_id}/chat",
    "/api/v1/games/{game_id}/discard",
)
REFUSED_BY_BOTH = [
    (NEW_GAME, "start_when_full", 0),
    (NEW_GAME, "start_when_full", "true"),
    (NEW_GAME, "time_per_move_days", 4),
    (NEW_GAME, "time_per_move_days", True),
    (NEW_GAME, "seat_count", "3"),
    (NEW_GAME, "max_timeouts", 0),
    (NEW_GAME, "max_timeouts", 11),
    (NEW_GAME, "max_timeouts", True),
    (NEW_GAME, "rounds", "short"),
    (NEW_GAME, "variants", ["no_such_switch"]),
    (NEW_GAME, "bots", "genius"),
    (NEW_GAME, "seats", ["random"]),
    (CHAT, "text", "x" * 501),
    (CHAT, "text", ""),
    (DISCARD, "card", "1H"),
    (DISCARD, "card", "7H7H"),
    (DISCARD, "card", "XY"),
    (DISCARD, "card", "JK.x"),
    (DISCARD, "card", "7 H"),
    (DISCARD, "version", True),
]


@pytest.fixture
def table(client):
    """A game in play, the token of its player to move, and the walk's operations by path."""
    from tests.api.helpers import token_for
    from tests.api.walk import operations
    from tests.factories import UserFactory, started_game

    game = started_game([UserFactory(), UserFactory()], is_public=False)
    token = token_for(game.seats.get(index=game.to_move_seat).user)
    ops = {op.path: op for op in operations() if op.method == "post"}
    return game, token, ops


def _answer(client, table, path, field, value):
    from tests.api.walk import call

    game, token, ops = table
    op = ops[path]
    game.refresh_from_db()
    body = op.sample(version=game.version)
    body[field] = value
    return body, op, call(client, op, {"game_id": game.pk}, token, body)


@pytest.mark.parametrize(("path", "field", "value"), REFUSED_BY_BOTH)
def test_what_validation_refuses_the_schema_refuses(client, table, path, field, value):
    import jsonschema

    body, op, answer = _answer(client, table, path, field, value)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(body, op.body)
    assert answer.status_code == 422, (answer.status_code, answer.content[:200])


def _choices(node: dict) -> list:
    if "enum" in node:
        return node["enum"]
    for key in ("anyOf", "oneOf"):
        for option in node.get(key, []):
            if "enum" in option:
                return option["enum"]
    return _choices(node["items"]) if "items" in node else []


def test_every_choice_the_schema_offers_for_a_new_game_is_taken(client, table):
    """Each enum of the new game's body, one value at a time, makes a game."""
    _game, _token, ops = table
    fields = ops[NEW_GAME].body["properties"]
    tried = 0
    for field, node in fields.items():
        for choice in _choices(node):
            value = [choice] if node.get("type") == "array" else choice
            _body, _op, answer = _answer(client, table, NEW_GAME, field, value)
            assert answer.status_code == 201, (field, value, answer.content[:200])
            tried += 1
    assert {"time_per_move_days", "rounds", "bots", "visibility", "variants"} <= {
        field for field, node in fields.items() if _choices(node)
    }
    assert tried >= 20
    _body, _op, answer = _answer(client, table, NEW_GAME, "time_per_move_days", 3.0)
    assert answer.status_code == 201  # an integer, as JSON Schema has it


def test_the_chat_takes_as_long_a_text_as_the_schema_says(client, table):
    _game, _token, ops = table
    longest = ops[CHAT].body["properties"]["text"]["maxLength"]
    _body, _op, answer = _answer(client, table, CHAT, "text", "x" * longest)
    assert answer.status_code == 201, answer.content[:200]


def test_every_card_of_every_deck_has_the_schemas_shape_and_every_such_shape_is_a_card(table):
    import re

    from hypothesis import given
    from hypothesis import strategies as st

    from games.engine.cards import Card, make_deck

    _game, _token, ops = table
    pattern = ops[DISCARD].body["properties"]["card"]["pattern"]
    for card in make_deck(decks=3, jokers=True):
        assert re.search(pattern, card.token), card.token

    @given(st.from_regex(pattern, fullmatch=True))
    def parses(token):
        Card.from_token(token)

    parses()
