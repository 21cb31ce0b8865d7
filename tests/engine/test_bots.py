"""The computer players: they act on a PlayerView only, and always legally."""

from __future__ import annotations

import inspect
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.actions import Discard, Draw, GoOut
from games.engine.bots import BOTS, EasyBot, HardBot, MediumBot, RandomBot, get_bot, simulate_game
from games.engine.bots.base import cannot_help
from games.engine.cards import Card, make_deck
from games.engine.errors import RuleError
from games.engine.melds import discard_options
from games.engine.rules import Rules
from games.engine.state import GameState
from tests.engine.helpers import cards, make_state
from tests.examples import examples

pytestmark = pytest.mark.engine


def medium_choice(state: GameState):
    return MediumBot().choose(state.view(state.to_move), random.Random(0))


def test_registry():
    assert set(BOTS) == {"random", "easy", "medium", "hard"}
    assert isinstance(get_bot("random"), RandomBot)
    assert isinstance(get_bot("easy"), EasyBot)
    assert isinstance(get_bot("medium"), MediumBot)
    assert isinstance(get_bot("hard"), HardBot)
    assert get_bot("hard", seconds=0.2).seconds == 0.2 and get_bot("hard").seconds == 1.0
    with pytest.raises(ValueError, match="no bot named"):
        get_bot("grandmaster")


def test_bots_never_see_the_state():
    from games.engine.bots import base, hard, knowledge, outlook, simple

    for module in (base, simple, knowledge, outlook, hard):
        source = inspect.getsource(module)
        assert "GameState" not in source and "state." not in source, module


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_refuses_to_move_when_it_is_not_its_turn(name):
    state = make_state(["5H 6H KS", "9C 10D QS"])
    with pytest.raises(RuleError):
        get_bot(name).choose(state.view(1), random.Random(0))
    with pytest.raises(RuleError):
        get_bot(name).choose(state.view(None), random.Random(0))


def test_random_bot_picks_uniformly_among_legal_actions():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="2C")
    state.apply(Draw(0, "stock"))
    view = state.view(0)
    rng = random.Random(1)
    picks = {RandomBot().choose(view, rng) for _ in range(200)}
    assert picks == set(state.legal_actions())


def test_medium_goes_out_when_it_can():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="7H")
    state.apply(Draw(0, "stock"))
    assert medium_choice(state) == GoOut(0, Card(13, "S"))


def test_medium_takes_the_discard_when_it_lowers_the_penalty():
    state = make_state(["5H 6H KS", "9C 10D QS"], discard="JC 7H")
    assert medium_choice(state) == Draw(0, "discard")
    state = make_state(["5H 6H KS", "9C 10D QS"], discard="JC AD")  # a cheaper card than the KS
    assert medium_choice(state) == Draw(0, "discard")


def test_medium_draws_from_the_stock_when_the_discard_does_not_help():
    state = make_state(["5H 6H 2S", "9C 10D QS"], discard="JC KC")
    assert medium_choice(state) == Draw(0, "stock")


def test_medium_takes_the_discard_when_the_stock_cannot_be_drawn():
    state = make_state(["5H 6H 2S", "9C 10D QS"], stock="", discard="KC")
    assert medium_choice(state) == Draw(0, "discard")


def test_medium_discards_the_card_that_leaves_the_least_penalty():
    state = make_state(["5H 6H 7H 9C", "9C 10D QS"], stock="2D", round_index=1)  # 4s wild
    state.apply(Draw(0, "stock"))
    assert medium_choice(state) == Discard(0, Card(9, "C"))


def test_medium_breaks_ties_by_throwing_the_dearest_card():
    # last turns (no going out): dropping either end of 5H-8H leaves 0; the 8H goes
    state = make_state(["5H 6H 7H", "8C 9C QS"], discard="JC 10C", stock="8H", to_move=1)
    state.apply(Draw(1, "discard"))
    state.apply(GoOut(1, Card(12, "S")))
    state.apply(Draw(0, "stock"))
    assert medium_choice(state) == Discard(0, Card(8, "H"))


def test_medium_prefers_the_least_penalty_over_the_dearest_card():
    state = make_state(["5H 6H 7H 8S", "9C 10D QS"], stock="QD", round_index=1)  # 4s wild
    state.apply(Draw(0, "stock"))
    assert medium_choice(state) == Discard(0, Card(12, "D"))


def test_medium_never_throws_back_the_card_it_took():
    state = make_state(["5H 6H KS", "9C 10D QS"], discard="JC AD")
    state.apply(Draw(0, "discard"))
    choice = medium_choice(state)
    assert choice == Discard(0, Card(13, "S"))
    assert state.is_legal(choice)


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("all_wild_melds", [False, True])
def test_bots_play_on_from_a_hand_of_jokers_that_took_a_joker(name, all_wild_melds):
    rules = Rules(jokers=True, all_wild_melds=all_wild_melds)
    state = make_state(["JK JK.1 JK.2", "9C 10D QS"], rules=rules, stock="", discard="JK.3")
    rng = random.Random(0)
    for _ in range(2):  # the draw (the discard pile only), then the discard
        action = get_bot(name).choose(state.view(0), rng)
        assert action in state.legal_actions()
        state.apply(action)
    assert state.to_move == 1
    if name != "random":  # three jokers meld only when all-wild melds are allowed
        assert (state.went_out == 0) is all_wild_melds


def test_medium_does_not_try_to_go_out_in_the_last_turns():
    state = make_state(["9C 10D QS", "5H 6H KS"], discard="JC 7H", to_move=1)
    state.apply(Draw(1, "discard"))
    state.apply(GoOut(1, Card(13, "S")))
    state.hands[0] = cards("8C 9C 10C")
    state.stock.append(Card(2, "D"))
    state.apply(Draw(0, "stock"))
    assert medium_choice(state) == Discard(0, Card(2, "D"))


@pytest.mark.parametrize("players", [2, 5])
def test_simulate_game_plays_a_whole_game_deterministically(players):
    rules = Rules(turn_limit=5)
    names = ["easy", "random"] * 4
    state = simulate_game(rules, players, "sim", names[:players])
    assert state.is_over and state.winners
    assert len(state.round_results) == rules.round_count
    again = simulate_game(rules, players, "sim", names[:players])
    assert again.to_dict() == state.to_dict()


def test_simulate_game_needs_a_bot_per_seat():
    with pytest.raises(ValueError):
        simulate_game(Rules(), 3, "x", ["easy", "easy"])


def test_medium_bots_go_out_often():
    state = simulate_game(Rules(), 3, "greedy", ["medium"] * 3)
    went_out = [r.went_out for r in state.round_results]
    assert sum(w is not None for w in went_out) >= 8


@examples(2)
@given(
    st.lists(st.integers(0, 51), min_size=4, max_size=12, unique=True),
    st.integers(3, 13),
    st.booleans(),
    st.booleans(),
)
def test_the_take_the_discard_shortcut_agrees_with_the_solver(indexes, wild_rank, aces, ranked):
    rules = Rules(aces_high=aces, face_cards_by_rank=ranked)
    deck = make_deck()
    *hand, top = [deck[i] for i in indexes]
    if cannot_help(hand, top, wild_rank, rules):
        options = discard_options([*hand, top], wild_rank, rules)
        assert min(options[card] for card in hand) >= options[top]


def test_the_shortcut_applies_only_to_a_lone_dear_card():
    rules = Rules()
    assert cannot_help(cards("2C 5D 7S"), Card(13, "H"), 4, rules)
    assert not cannot_help(cards("2C 5D 7S"), Card(13, "H"), 2, rules)  # 2s wild
    assert not cannot_help(cards("2C 5D JH"), Card(13, "H"), 4, rules)  # neighbour
    assert not cannot_help(cards("2C 5D KS"), Card(13, "H"), 4, rules)  # same rank
    assert not cannot_help(cards("2C 5D 7S"), Card(6, "H"), 4, rules)  # cheaper
    assert not cannot_help(cards("2C 5D QS"), Card(1, "S"), 4, Rules(aces_high=True))
