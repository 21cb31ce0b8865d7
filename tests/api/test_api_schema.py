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
