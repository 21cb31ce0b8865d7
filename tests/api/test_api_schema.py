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
