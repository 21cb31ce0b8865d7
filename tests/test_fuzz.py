"""Junk in every field of every form: a readable 4xx or a harmless success, never a 500, and no
move is ever recorded from junk."""

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.deadlines import vacations
from games.models import Move
from tests.factories import UserFactory, started_game

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


@pytest.fixture
def table():
    """One game for all of a test's examples (junk changes nothing, so they can share it)."""
    users = [UserFactory(), UserFactory()]
    return started_game(users), users


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
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


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
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
