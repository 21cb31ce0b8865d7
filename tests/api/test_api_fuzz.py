"""Junk sent to every operation of the API (tests/api/walk.py, from its OpenAPI schema), as the
game's player to move with a token that may do anything: malformed JSON, wrong types in every
field (strings for numbers, lists for objects, negative and huge numbers, unicode junk, NUL
bytes), bodies past the upload limit, junk in the query string and in the address. Never a 500:
a 4xx with a JSON `{"detail": …}`, and the game unchanged. (A valid chat message or new game
may be made: the junk is then only a string, and the game itself is still unchanged.)"""

import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from games.engine import GameState
from games.models import Game, Move
from tests.api.helpers import token_for
from tests.api.walk import call, conforms, operations, problem
from tests.examples import examples
from tests.factories import UserFactory, started_game

pytestmark = [pytest.mark.fuzz, pytest.mark.django_db]

OPERATIONS = operations()
POSTS = [op for op in OPERATIONS if op.method == "post"]
WITH_BODY = [op for op in POSTS if op.body is not None]
GETS = [op for op in OPERATIONS if op.method == "get"]
# Successes that junk may reach without touching the game: a string is a chat message, and
# a new game is the player's own.
MAY_MAKE = {("post", "/api/v1/games/{game_id}/chat"): 201, ("post", "/api/v1/games"): 201}
SHAPES = ["\x00", "a\x00b", "²", "٣", "9" * 30, "-1", "0", "99999999999999999999", "1e9",
          "7H\x00", "JK.99", "' OR 1=1 --", "<script>", "\ud7ff\ufffe", "\U0001d7d5H"]  # fmt: skip
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([-1, 0, 2**31, 2**63, 10**30, -(10**30)]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(SHAPES),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
MALFORMED = [b"", b"{", b"}", b"null", b"[]", b'"x"', b"0", b"{'version': 1}", b"\xff\xfe\x00",
             b"\xef\xbb\xbf{}", b'{"version": NaN}', b'{"version": 1e400}', b'{"a": 1, "a": 2}',
             b"[" * 100_000 + b"]" * 100_000, b'{"x":' * 50_000 + b"1" + b"}" * 50_000,
             b"{\"text\": \"\\ud800\"}"]  # fmt: skip
HUGE = 5 * 1024 * 1024


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    settings.RATE_LIMITS = {action: (10**9, 60) for action in settings.RATE_LIMITS}


@pytest.fixture
def table():
    """One game for all of a test's examples (junk changes nothing of it, so they can share it),
    its player to move, and their token."""
    game = started_game([UserFactory(), UserFactory()], is_public=False)
    mover = game.seats.get(index=game.to_move_seat).user
    return game, token_for(mover), Client()


def unchanged(game: Game) -> None:
    now = Game.objects.get(pk=game.pk)
    assert (now.version, now.status, now.state) == (game.version, game.status, game.state)
    assert not Move.objects.filter(game=game).exists()
    assert not game.seats.filter(resigned=True).exists()


def refused(response, op) -> None:
    """A 4xx with `{"detail": …}` (or, for junk that is still a valid request, the harmless
    success it may have)."""
    status = response.status_code
    if status == MAY_MAKE.get((op.method, op.path)):
        return
    assert 400 <= status < 500, (str(op), status, response.content[:300])
    problem(response)
    conforms(op, response)


def not_a_move(body, game: Game):
    """Junk must never be a valid move by accident: with the game's version and a source or a
    card of the hand, the version is spoilt (with the version and junk, it reaches the service)."""
    hand = {c.token for c in GameState.from_dict(game.state).hands[game.to_move_seat]}
    strings = {v for v in body.values() if isinstance(v, str)} if isinstance(body, dict) else ()
    if strings and body.get("version") == game.version and {"stock", "discard", *hand} & strings:
        body["version"] = -1
    return body


@examples(2, suppress_health_check=list(HealthCheck))
@given(data=st.data(), op=st.sampled_from(WITH_BODY))
def test_junk_in_every_field_of_every_body_never_500(table, data, op):
    """Each field of the body's schema (and some it does not have) holds junk of any type."""
    game, token, client = table
    fields = [*op.body.get("properties", {}), "extra", "__proto__"]
    body = data.draw(st.dictionaries(st.sampled_from(fields), values, max_size=len(fields)))
    if data.draw(st.booleans(), label="whole body junk"):
        body = data.draw(values, label="body")
    body = not_a_move(body, game)
    refused(call(client, op, {"game_id": game.pk, "invitation_id": 1}, token, body), op)
    unchanged(game)


@pytest.mark.parametrize("index", range(len(MALFORMED)))
def test_malformed_json_on_every_post_is_a_4xx(table, index):
    game, token, client = table
    wrong = []
    for op in WITH_BODY:
        response = call(client, op, {"game_id": game.pk, "invitation_id": 1}, token,
                        MALFORMED[index])  # fmt: skip
        if response.status_code != MAY_MAKE.get((op.method, op.path)):  # `null`, `[]`: {}
            if not 400 <= response.status_code < 500:
                wrong.append(f"{op}: {response.status_code}")
            else:
                problem(response)
                conforms(op, response)
    assert not wrong, "\n".join(wrong)
    unchanged(game)


@pytest.mark.parametrize("kind", ["json", "junk"])
def test_a_body_past_the_upload_limit_is_a_4xx(table, kind):
    """5 MB: a JSON string in a valid field, or bytes that are no JSON. Django refuses it
    before the API reads it (DATA_UPLOAD_MAX_MEMORY_SIZE): its own 400 page, not JSON."""
    game, token, client = table
    hand = GameState.from_dict(game.state).hands[game.to_move_seat]
    wrong = []
    for op in WITH_BODY:
        if kind == "json":
            body = op.sample(version=game.version, card=hand[0].token, text="x" * HUGE)
            body = json.dumps({**body, "padding": "x" * HUGE})
            assert len(body) > HUGE
        else:
            body = b"\x00" * HUGE
        response = call(client, op, {"game_id": game.pk, "invitation_id": 1}, token, body)
        if not 400 <= response.status_code < 500:
            wrong.append(f"{op}: {response.status_code}")
    assert not wrong, "\n".join(wrong)
    unchanged(game)


ids = st.one_of(
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, -1, 2**31, 2**63, 10**30]),
    # (not "/", "?", "#", "%": they would make it another address)
    st.text(min_size=1, max_size=12).filter(lambda t: not set(t) & set("/?#%")),
)


@examples(1, suppress_health_check=list(HealthCheck))
@given(data=st.data(), op=st.sampled_from(OPERATIONS))
def test_junk_in_the_address_and_the_query_never_500(table, data, op):
    """Junk path parameters on every operation (never the real game: a body-less write such as
    resign would then be a real one), junk in every query parameter of the reads."""
    game, token, client = table
    path_ids = {name: data.draw(ids, label=name) for name in op.params}
    if op.method == "get":
        keys = st.sampled_from([*op.query, "page", "filter", "after", "x"])
        query = data.draw(st.dictionaries(keys, st.sampled_from(SHAPES) | st.text(max_size=20),
                                          max_size=4))  # fmt: skip
        if data.draw(st.booleans(), label="the real game"):
            path_ids = {"game_id": game.pk}
        response = call(client, op, path_ids, token, query)
        assert response.status_code < 500, (str(op), query, response.content[:300])
        if response.status_code >= 400:
            problem(response)
        conforms(op, response)
    else:
        if any(str(value) == str(game.pk) for value in path_ids.values()):
            return
        response = call(client, op, path_ids, token, not_a_move(op.sample(version=0), game))
        assert response.status_code < 500, (str(op), path_ids, response.content[:300])
        if op.params and response.status_code != 404:  # an address with junk is none of ours
            refused(response, op)
    unchanged(game)


@pytest.mark.parametrize("big", [2**63, 10**30], ids=["2**63", "10**30"])
def test_an_id_past_64_bits_in_every_address_is_a_404(table, big):
    """Every operation with an id in its address, each id past what a row can hold: 404."""
    game, token, client = table
    wrong = []
    for op in OPERATIONS:
        if not op.params:
            continue
        body = None if op.method == "get" else op.sample(version=0)
        response = call(client, op, dict.fromkeys(op.params, big), token, body)
        if response.status_code != 404:
            wrong.append(f"{op}: {response.status_code}")
    assert not wrong, "\n".join(wrong)
    unchanged(game)
