"""What each seat may see, move records, serialization of actions and states."""

from __future__ import annotations

import json

import pytest

from games.engine.actions import Discard, Draw, GoOut, action_from_dict
from games.engine.cards import Card
from games.engine.errors import RuleError
from games.engine.rules import Rules
from games.engine.state import GameState
from tests.engine.helpers import cards, finish_round, make_state

pytestmark = pytest.mark.engine


def quoted_tokens(view_dict: dict) -> str:
    return json.dumps({k: v for k, v in view_dict.items() if k != "round_results"})


# -- actions ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "data"),
    [
        (Draw(1, "stock"), {"type": "draw", "seat": 1, "source": "stock"}),
        (Draw(0, "discard"), {"type": "draw", "seat": 0, "source": "discard"}),
        (Discard(2, Card(10, "H", 1)), {"type": "discard", "seat": 2, "card": "10H.1"}),
        (GoOut(3, Card(0, "J", 3)), {"type": "go_out", "seat": 3, "card": "JK.3"}),
    ],
)
def test_actions_round_trip_through_dicts(action, data):
    assert action.to_dict() == data
    assert action_from_dict(data) == action
    assert action_from_dict(json.loads(json.dumps(data))) == action


@pytest.mark.parametrize(
    "junk",
    [
        {},
        {"type": "pass", "seat": 0},
        {"type": "draw", "seat": 0, "source": "hand"},
        {"type": "draw", "seat": "0", "source": "stock"},
        {"type": "discard", "seat": 0, "card": "1H"},
        {"type": "discard", "seat": 0},
        {"type": "go_out", "seat": True, "card": "AS"},
        "draw",
    ],
)
def test_junk_actions_are_refused_with_a_rule_error(junk):
    with pytest.raises(RuleError):
        action_from_dict(junk)


# -- move records ----------------------------------------------------------------------------------


def test_a_stock_draw_is_shown_only_to_the_drawer():
    state = make_state(["5H 6H KS", "9C 10D QS", "AS 2D 8C"], stock="2C 4D", discard="JC")
    record = state.apply(Draw(0, "stock"))
    assert record.public_for(0)["card"] == "4D"
    assert record.public_for(1)["card"] is None
    assert record.public_for(None)["card"] is None
    assert record.public_for(1)["source"] == "stock"
    assert record.to_dict()["card"] == "4D"
    record = state.apply(Discard(0, Card(4, "D")))
    assert record.public_for(None)["card"] == "4D"


def test_a_discard_pile_draw_and_every_discard_are_public():
    state = make_state(["5H 6H KS", "9C 10D QS"], discard="JC 7H")
    record = state.apply(Draw(0, "discard"))
    assert record.public_for(None)["card"] == "7H"
    record = state.apply(GoOut(0, Card(13, "S")))
    public = record.public_for(1)
    assert public["type"] == "go_out" and public["card"] == "KS"
    assert sorted(public["melds"][0]) == sorted(["5H", "6H", "7H"])
    assert public["action_index"] == 1 and public["round_index"] == 0
    assert not public["round_ended"]
    record = state.apply(Draw(1, "stock"))
    record = state.apply(Discard(1, record.card))
    assert record.round_ended and not record.game_over
    assert json.dumps(record.public_for(None))


def test_the_last_discard_of_the_game_says_so():
    state = make_state(["9C", "QD"], rules=Rules(turn_limit=1), round_index=10)
    state.apply(Draw(0, "stock"))
    state.apply(Discard(0, state.hands[0][-1]))
    state.apply(Draw(1, "stock"))
    record = state.apply(Discard(1, state.hands[1][-1]))
    assert record.round_ended and record.game_over


# -- views -----------------------------------------------------------------------------------------


def test_a_player_sees_their_own_hand_and_public_facts_only():
    state = make_state(
        ["5H 6H KS", "9C 10D QS", "AS 2D 8C"], stock="2C 4D 7C", discard="JC 8H", to_move=1
    )
    view = state.view(0)
    assert view.seat == 0 and view.hand == tuple(cards("5H 6H KS"))
    assert view.top_discard == Card(8, "H")
    assert view.stock_size == 3
    assert view.card_counts == (3, 3, 3)
    assert view.to_move == 1 and view.phase == "draw"
    assert view.legal_actions == ()  # not its turn
    assert view.round_count == 11 and view.hand_size == 3 and view.wild_rank == 3
    assert view.dealer == state.dealer
    text = quoted_tokens(view.to_dict())
    for token in ["9C", "10D", "QS", "AS", "2D", "8C", "2C", "4D", "7C", "JC"]:
        assert f'"{token}"' not in text, token


def test_the_seat_to_move_sees_its_legal_actions():
    state = make_state(["5H 6H KS", "9C 10D QS"], discard="JC 7H")
    view = state.view(0)
    assert view.my_turn
    assert view.legal_actions == (Draw(0, "stock"), Draw(0, "discard"))
    state.apply(Draw(0, "discard"))
    view = state.view(0)
    assert view.drawn_from_discard == Card(7, "H")
    assert GoOut(0, Card(13, "S")) in view.legal_actions
    assert Discard(0, Card(7, "H")) not in view.legal_actions
    assert state.view(1).drawn_from_discard == Card(7, "H")  # everybody saw it taken
    assert state.view(1).top_discard == Card(11, "C")


def test_a_spectator_sees_no_hand():
    state = make_state(["5H 6H KS", "9C 10D QS"], discard="JC 7H")
    view = state.view(None)
    assert view.hand is None and view.legal_actions == ()
    text = quoted_tokens(view.to_dict())
    for token in ["5H", "6H", "KS", "9C", "10D", "QS", "JC"]:
        assert f'"{token}"' not in text
    assert '"7H"' in text


def test_shown_melds_and_past_rounds_are_visible_to_all():
    state = make_state(["5H 6H KS", "9C 10D QS"], discard="JC 7H")
    state.apply(Draw(0, "discard"))
    state.apply(GoOut(0, Card(13, "S")))
    view = state.view(1)
    assert view.went_out == 0 and view.last_turns
    assert sorted(view.shown_melds[0][0]) == sorted(cards("5H 6H 7H"))
    finish_round(state)
    view = state.view(None)
    assert view.scores == ((0, 29),)
    assert view.totals == (0, 29)
    assert view.round_results[0].seats[1].hand == tuple(cards("9C 10D QS"))
    assert view.to_dict()["round_results"][0]["seats"][1]["penalty"] == 29


def test_no_such_seat():
    state = make_state(["5H 6H KS", "9C 10D QS"])
    for seat in (2, -1, "0", True):
        with pytest.raises(RuleError):
            state.view(seat)


def test_views_are_json_and_frozen():
    state = GameState.new(Rules(jokers=True), 4, "v")
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        assert json.loads(json.dumps(view.to_dict())) == view.to_dict()
        with pytest.raises(AttributeError):
            view.hand = ()


# -- serialization ---------------------------------------------------------------------------------


def test_state_round_trips_through_json_at_every_step():
    rules = Rules(turn_limit=2, redemption=True, jokers=True)
    state = GameState.new(rules, 3, "roundtrip")
    actions = []
    while not state.is_over:
        copy = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert copy.to_dict() == state.to_dict()
        assert copy == state
        assert copy.legal_actions() == state.legal_actions()
        action = state.legal_actions()[0]
        actions.append(action)
        state.apply(action)
    assert GameState.replay(rules, 3, "roundtrip", actions).to_dict() == state.to_dict()
    replayed = GameState.replay(
        rules, 3, "roundtrip", [action_from_dict(a.to_dict()) for a in actions]
    )
    assert replayed == state
    assert GameState.replay(rules, 3, "roundtrip", [a.to_dict() for a in actions]) == state


def test_an_unknown_state_format_is_refused():
    data = GameState.new(Rules(), 2, "f").to_dict()
    data["format"] = 99
    with pytest.raises(ValueError):
        GameState.from_dict(data)


def test_rule_errors_carry_an_untranslated_template_and_its_parameters():
    from games.engine import Discard, GameState, RuleError

    state = GameState.new(Rules(), 2, "i18n")
    seat = state.to_move
    state.apply(state.legal_actions()[0])
    foreign = next(c for c in state.hands[1 - seat])
    with pytest.raises(RuleError) as caught:
        state.apply(Discard(seat, foreign))
    assert caught.value.template == "You do not hold the %(card)s."
    assert caught.value.params == {"card": str(foreign)}
    assert str(caught.value) == f"You do not hold the {foreign}."


def test_the_pile_log_records_what_the_table_saw_and_survives_a_snapshot():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="2C", discard="JC 7H")
    state.pile_events = [(None, "turned", Card(7, "H"))]
    state.apply(Draw(0, "discard"))
    state.apply(Discard(0, Card(13, "S")))
    state.apply(Draw(1, "stock"))  # unseen: not logged
    state.apply(Discard(1, Card(2, "C")))
    expected = (
        (None, "turned", Card(7, "H")),
        (0, "took", Card(7, "H")),
        (0, "threw", Card(13, "S")),
        (1, "threw", Card(2, "C")),
    )
    assert state.view(0).pile_events == state.view(1).pile_events == expected
    assert GameState.from_dict(state.to_dict()).view(None).pile_events == expected
