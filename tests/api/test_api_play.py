"""The API plays as the pages do (games/api): the account's games, a game's facts and the
viewer's own view, moves with the version check, chat, invitations, a new game."""

import pytest

from games.engine import GameState, Rules
from games.invitations import game_invite
from games.models import Game
from games.services import game_create
from tests.api.helpers import Api, token_for
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client):
    ann, bob = UserFactory(), UserFactory()
    game = started_game([ann, bob], is_public=False)
    mover = game.seats.get(index=game.to_move_seat).user
    other = bob if mover == ann else ann
    return game, Api(client, token_for(mover)), Api(client, token_for(other)), mover


def test_me_names_the_account_and_the_token_scopes(client):
    user = UserFactory(username="ann")
    answer = Api(client, token_for(user, "read")).get("/me")
    assert answer.status_code == 200
    body = answer.json()
    assert body["username"] == "ann" and body["scopes"] == ["read"] and body["is_bot"] is False


def test_without_a_token_or_with_a_bad_one_every_endpoint_is_401(client):
    assert Api(client, None).get("/me").status_code == 401
    answer = Api(client, "tt_not-a-token").get("/me")
    assert answer.status_code == 401 and answer["WWW-Authenticate"] == "Bearer"


def test_the_view_holds_the_viewers_hand_and_legal_moves_only(table):
    game, mine, theirs, _mover = table
    state = GameState.from_dict(Game.objects.get(pk=game.pk).state)
    view = mine.get(f"/games/{game.pk}/view").json()
    assert view["hand"] == [c.token for c in state.hands[view["seat"]]]
    assert {a["type"] for a in view["legal_actions"]} == {"draw"}
    other = theirs.get(f"/games/{game.pk}/view").json()
    assert other["hand"] == [c.token for c in state.hands[other["seat"]]]
    assert other["legal_actions"] == []
    facts = mine.get(f"/games/{game.pk}").json()
    assert "hand" not in str(facts) and facts["version"] == game.version


def test_a_turn_through_the_api_and_a_stale_version_is_409(table):
    game, mine, theirs, _mover = table
    version = game.version
    view = mine.post(f"/games/{game.pk}/draw", {"version": version, "source": "stock"}).json()
    assert view["phase"] == "discard" and view["version"] == version + 1
    stale = mine.post(f"/games/{game.pk}/discard", {"version": version, "card": view["hand"][0]})
    assert stale.status_code == 409 and "moved on" in stale.json()["detail"]
    card = next(a["card"] for a in view["legal_actions"] if a["type"] == "discard")
    done = mine.post(f"/games/{game.pk}/discard", {"version": version + 1, "card": card})
    assert done.status_code == 200 and done.json()["to_move"] != view["seat"]
    assert theirs.post(f"/games/{game.pk}/discard", {"version": 0, "card": "7H"}).status_code == 409


def test_a_card_not_in_the_hand_is_a_400_and_changes_nothing(table):
    game, mine, _theirs, _mover = table
    mine.post(f"/games/{game.pk}/draw", {"version": game.version, "source": "stock"})
    hand = mine.get(f"/games/{game.pk}/view").json()["hand"]
    absent = next(f"{r}{s}" for r in "A23456789" for s in "CDHS" if f"{r}{s}" not in hand)
    answer = mine.post(f"/games/{game.pk}/discard", {"version": game.version + 1, "card": absent})
    assert answer.status_code == 400
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_a_stranger_meets_no_such_game(client, table):
    game, *_ = table
    stranger = Api(client, token_for(UserFactory()))
    for path in ("", "/view", "/history", "/chat"):
        assert stranger.get(f"/games/{game.pk}{path}").status_code == 404
    answer = stranger.post(f"/games/{game.pk}/draw", {"version": game.version, "source": "stock"})
    assert answer.status_code in (403, 404)


def test_scopes_are_kept(client, table):
    game, *_rest, mover = table
    reader = Api(client, token_for(mover, "read"))
    answer = reader.post(f"/games/{game.pk}/draw", {"version": game.version, "source": "stock"})
    assert answer.status_code == 403 and "play" in answer.json()["detail"]
    assert reader.post(f"/games/{game.pk}/chat", {"text": "hi"}).status_code == 403
    player = Api(client, token_for(mover, "play"))
    assert player.get(f"/games/{game.pk}/view").status_code == 403
    assert Game.objects.get(pk=game.pk).version == game.version


def test_chat_read_and_write(table):
    game, mine, theirs, _mover = table
    assert mine.post(f"/games/{game.pk}/chat", {"text": "Good luck!"}).status_code == 201
    lines = theirs.get(f"/games/{game.pk}/chat").json()
    assert [(line["text"], line["mine"]) for line in lines] == [("Good luck!", False)]
    assert theirs.get(f"/games/{game.pk}/chat", after=lines[0]["seq"]).json() == []


def test_the_games_list_puts_the_turn_first(table):
    game, mine, theirs, _mover = table
    assert [row["id"] for row in mine.get("/games", filter="my_turn").json()["items"]] == [game.pk]
    assert theirs.get("/games", filter="my_turn").json()["items"] == []
    assert [row["id"] for row in theirs.get("/games", filter="waiting").json()["items"]] == [
        game.pk
    ]
    refused = mine.get("/games", filter="nonsense")
    assert refused.status_code == 422 and refused.json()["detail"].startswith("query.filter:")


def test_a_new_game_against_a_bot_starts_at_once(client):
    api = Api(client, token_for(UserFactory()))
    answer = api.post("/games", {"seat_count": 2, "seats": ["easy"], "time_per_move_days": 0})
    assert answer.status_code == 201, answer.content
    facts = answer.json()
    assert facts["status"] == "active" and facts["seats"][1]["player"]["is_bot"] is True
    bad = api.post("/games", {"seat_count": 2, "seats": ["grandmaster"]})
    assert bad.status_code == 422 and "seats" in bad.json()["detail"]


def test_an_invitation_is_answered_through_the_api(client):
    host, guest = UserFactory(), UserFactory()
    game = game_create(creator=host, rules=Rules(), seat_count=2, is_public=False)
    game_invite(game_id=game.pk, user=host, who=guest.username)
    api = Api(client, token_for(guest))
    waiting = api.get("/invitations").json()
    assert [item["game"] for item in waiting] == [game.pk]
    facts = api.post(f"/invitations/{waiting[0]['id']}/accept").json()
    assert facts["status"] == "active"


def test_a_new_games_settings_are_checked_as_the_form_checks_them(client):
    """One check for both doors (games/newgame.py): the API no longer builds the page's form
    data to reach it. Its choices are in the API's schema too, so a choice the form does not
    offer is refused for its shape (422) before it reaches the check (test_api_schema.py)."""
    api = Api(client, token_for(UserFactory()))
    refused = api.post("/games", {"seat_count": 3, "time_per_move_days": 4})
    assert refused.status_code == 422 and "time_per_move_days" in refused.json()["detail"]
    refused = api.post("/games", {"seat_count": 3, "seats": ["grandmaster"]})
    assert refused.status_code == 422 and "seats.0" in refused.json()["detail"]
    made = api.post("/games", {"seat_count": 3, "seats": ["hard"], "variants": ["jokers"]})
    assert made.status_code == 201
