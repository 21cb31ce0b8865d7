"""Junk in every field of every form and every address: a readable 4xx or a harmless success,
never a 500, and no move is ever recorded from junk. One mechanism for all: hypothesis picks a URL
pattern (all of the site's, from the URL resolver), fills its arguments with real objects or
junk of the converter's shape, and sends junk in the query string (GET) or in the fields of every
form (POST), as a player, a stranger or a visitor."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from accounts.forms import PreferencesForm, ProfileForm, PushSubscriptionForm
from games.competitions.forms import LeagueForm, TournamentForm
from games.deadlines import vacations
from games.forms import GameCreateForm, VacationForm
from games.models import Move
from tests.examples import examples
from tests.factories import UserFactory, started_game
from tests.urlwalk import is_admin, walk, world_build

pytestmark = [pytest.mark.fuzz, pytest.mark.django_db]

POSTS = ["move_draw", "move_discard", "move_go_out", "hand_sort", "game_join", "game_leave",
         "game_bots", "game_start", "game_resign", "game_invite", "seat_resume"]  # fmt: skip
FIELDS = ["version", "source", "card", "sort", "order", "bot", "who", "csrfmiddlewaretoken"]
# The shapes that reached the database or int() raw before: a NUL byte (PostgreSQL refuses it in
# text and JSON), digits that str.isdigit() accepts but int() does not, numbers past any column.
SHAPES = ["\x00", "a\x00b", "²", "٣", "9" * 30, "-1", "0", "99999999999999999999", "1e9"]
junk = st.one_of(
    st.text(max_size=40),
    st.sampled_from([*SHAPES, "stock", "discard", "JK", "7H.1", "7H\x00", "' OR 1=1 --",
                     "<script>alert(1)</script>", "manual"]),
)  # fmt: skip


# Every field a form or view of the site reads: its own forms' fields, what views read from
# request.POST, and allauth's forms (login, sign-up, reset, change, codes).
ALLAUTH_FIELDS = [
    "login",
    "password",
    "remember",
    "username",
    "email",
    "password1",
    "password2",
    "oldpassword",
    "code",
    "action",
    "action_primary",
    "action_send",
    "action_remove",
]
VIEW_FIELDS = ["player", "mute", "open", "text", "language", "next", "back", "section", "action",
               "vacation", "endpoint", "confirm", "who", "order"]  # fmt: skip
ALL_FIELDS = sorted(
    {*FIELDS, *ALLAUTH_FIELDS, *VIEW_FIELDS, *GameCreateForm().fields, *PreferencesForm().fields,
     *ProfileForm().fields, *PushSubscriptionForm().fields, *VacationForm().fields,
     *TournamentForm().fields,
     *LeagueForm().fields}
)  # fmt: skip
QUERY = ["v", "c", "vs", "page", "step", "format", "invite", "next", "q"]
# Junk of the shape each converter accepts, so that the address reaches the view.
slash_free = st.text(min_size=1, max_size=30).filter(lambda text: "/" not in text)
CONVERTERS = {
    "id": st.one_of(st.integers(0, 10**30), st.sampled_from([0, 1, 2**31, 2**63])),
    "str": st.one_of(slash_free, st.sampled_from([s for s in SHAPES if "/" not in s])),
    "slug": st.from_regex(r"\A[-a-zA-Z0-9_]{1,30}\Z"),
}
values = st.one_of(junk, st.lists(junk, min_size=2, max_size=3))
PATTERNS = [(route, name) for route, name in walk() if not is_admin(name)]


@pytest.fixture
def world(db):
    return world_build()


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    """Junk goes on reaching the services however many examples a test sends (the limits
    themselves are tests/test_ratelimit.py's)."""
    settings.RATE_LIMITS = {action: (10**9, 60) for action in settings.RATE_LIMITS}


def fuzzed_url(data, route: str, name: str, real: dict) -> str:
    """The pattern's address, each argument the real object's or (drawn from `data`, if given)
    junk of its converter's shape."""
    kwargs = {}
    for converter, key in re.findall(r"<(?:(\w+):)?(\w+)>", route):
        junk_of = CONVERTERS.get(converter or "str") if "(?P<" not in route else None
        use_junk = junk_of is not None and data is not None and data.draw(st.booleans())
        kwargs[key] = data.draw(junk_of, label=key) if use_junk else real[key]
    return reverse(name, kwargs=kwargs)


@examples(1, suppress_health_check=list(HealthCheck))
@given(
    data=st.data(),
    pattern=st.sampled_from(PATTERNS),
    who=st.sampled_from(["alice", "stranger", None]),
)
def test_junk_anywhere_never_500(world, data, pattern, who):
    route, name = pattern
    client = Client()
    if who == "alice":
        client.force_login(world["victims"][0])
    elif who == "stranger":
        client.force_login(world["stranger"])
    url = fuzzed_url(data, route, name, world["args"])
    headers = {"HTTP_HX_REQUEST": "true"} if data.draw(st.booleans(), label="htmx") else {}
    if data.draw(st.booleans(), label="post"):
        form = data.draw(st.dictionaries(st.sampled_from(ALL_FIELDS), values, max_size=6))
        response = client.post(url, form, **headers)
    else:
        query = data.draw(st.dictionaries(st.sampled_from(QUERY), values, max_size=3))
        response = client.get(url, query, **headers)
    # /healthz says 503 by design here: no worker has sent a heartbeat in the tests.
    assert response.status_code < 500 or name == "healthz", (url, response.status_code)


@pytest.mark.parametrize("index", range(len(SHAPES)))
def test_each_bad_shape_in_every_field_of_every_endpoint_never_500(world, index):
    """Every pattern gets the shape in all its query parameters (GET) and in every form field at
    once (POST); as the game's player for half the shapes, as a visitor for the others."""
    shape, player = SHAPES[index], index % 2 == 0
    client = Client()
    form = dict.fromkeys(ALL_FIELDS, shape)
    query = dict.fromkeys(QUERY, shape)
    failed = []
    for route, name in PATTERNS:
        if player and not client.session.get("_auth_user_id"):
            client.force_login(world["victims"][0])  # again, after the logout pattern
        url = fuzzed_url(None, route, name, world["args"])
        for response in (client.get(url, query), client.post(url, form)):
            if response.status_code >= 500 and name != "healthz":
                failed.append(f"{response.request['REQUEST_METHOD']} {url}")
    assert not failed


@pytest.fixture
def table():
    """One game for all of a test's examples (junk changes nothing, so they can share it)."""
    users = [UserFactory(), UserFactory()]
    return started_game(users), users


@examples(2 / 3, suppress_health_check=list(HealthCheck))
@given(
    name=st.sampled_from(POSTS),
    data=st.dictionaries(st.sampled_from(FIELDS), junk, max_size=4),
    who=st.integers(0, 2),
)
def test_junk_posts_never_500_and_never_move(table, name, data, who):
    game, users = table
    client = Client()
    if who < 2:
        client.force_login(users[who])
    version = data.get("version", "")
    if version.isascii() and version.isdigit() and int(version) == game.version:
        data["version"] = "x"  # junk must never be a valid move by accident
    response = client.post(reverse(name, args=[game.pk]), data, HTTP_HX_REQUEST="true")
    assert response.status_code < 500
    assert not Move.objects.filter(game=game).exists()


@examples(1 / 4, suppress_health_check=list(HealthCheck))
@given(path=st.text(max_size=30), v=junk)
def test_junk_gets_never_500(table, path, v):
    game, users = table
    client = Client()
    client.force_login(users[0])
    for url in (reverse("game_table", args=[game.pk]), reverse("game_replay", args=[game.pk])):
        assert client.get(url, {"v": v, "step": v}).status_code < 500
    assert client.get("/games/" + path).status_code < 500
    assert client.get("/invite/" + path + "/").status_code < 500


@pytest.mark.parametrize("vacation", [*SHAPES, "", "x"])
def test_ending_a_vacation_with_junk_is_a_4xx(client, vacation):
    client.force_login(UserFactory())
    response = client.post(reverse("vacation"), {"action": "end", "vacation": vacation})
    assert response.status_code == 404 and "no such vacation" in response.content.decode()


def test_ending_someone_elses_or_an_ended_vacation_is_a_4xx_twice_over(client):
    from datetime import timedelta

    from django.utils import timezone

    owner, other = UserFactory(), UserFactory()
    today = timezone.now().date()
    vacations.vacation_book(user=owner, first_day=today + timedelta(days=3),
                            last_day=today + timedelta(days=4))  # fmt: skip
    vacation_id = str(owner.vacations.get().pk)
    client.force_login(other)
    end = {"action": "end", "vacation": vacation_id}
    assert client.post(reverse("vacation"), end).status_code == 404
    client.force_login(owner)
    assert client.post(reverse("vacation"), end).status_code == 302  # cancelled
    assert client.post(reverse("vacation"), end).status_code == 404  # a second tab


@pytest.mark.parametrize("big", [2**63, 10**30], ids=["2**63", "10**30"])
def test_an_id_past_64_bits_in_any_address_is_never_a_500(world, big):
    """Every pattern with a number in its address, each number past what the database holds,
    by GET and POST, as the game's player and as a visitor: a 4xx or a redirect, never a 500
    (SQLite and PostgreSQL both refuse such a number in a query)."""
    failed = []
    for route, name in PATTERNS:
        numbers = [
            key for converter, key in re.findall(r"<(\w+):(\w+)>", route) if converter == "id"
        ]
        if not numbers or "(?P<" in route:
            continue
        kwargs = {key: world["args"][key] for _c, key in re.findall(r"<(?:(\w+):)?(\w+)>", route)}
        for key in numbers:
            url = reverse(name, kwargs={**kwargs, key: big})
            for who in (world["victims"][0], None):
                client = Client(raise_request_exception=False)
                if who is not None:
                    client.force_login(who)
                for response in (client.get(url), client.post(url, {"version": "1"})):
                    if response.status_code >= 500 and name != "healthz":
                        failed.append(f"{response.request['REQUEST_METHOD']} {url}")
    assert not failed, sorted(set(failed))
