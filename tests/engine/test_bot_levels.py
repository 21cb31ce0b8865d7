"""The three levels: legal in every variant and table size, deterministic in (view, seed,
budget), blind to everything but the view, and each doing what its level promises."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.actions import Discard, Draw, GoOut
from games.engine.bots import EasyBot, HardBot, MediumBot, hard
from games.engine.bots.knowledge import LastTurn, explains, knowledge_of, sample_deal, sample_hands
from games.engine.bots.outlook import OUT_BONUS, OUT_BONUS_PER_CARD, Outlook
from games.engine.bots.simple import ranked_discards
from games.engine.cards import Card
from games.engine.melds import discard_options
from games.engine.rules import Rules
from games.engine.state import GameState
from tests.engine.helpers import advance, cards, make_state, mid_round_view, rules_strategy
from tests.examples import examples

pytestmark = pytest.mark.engine


def tiny_hard() -> HardBot:
    """A hard bot searching a few samples, with no clock: quick, and fully deterministic."""
    return HardBot(0.001, time_cap=False)


LEVELS = {"easy": EasyBot(), "medium": MediumBot(), "hard": tiny_hard()}


@examples(1 / 4)
@given(
    rules=rules_strategy,
    players=st.integers(2, 8),
    seed=st.text("abcdef0123", min_size=1, max_size=6),
    steps=st.integers(0, 400),
)
def test_every_level_only_chooses_legal_actions(rules, players, seed, steps):
    length = advance(GameState.new(rules, players, seed), 100_000, seed)
    state = GameState.new(rules, players, seed)
    advance(state, steps % length, seed)  # the same game, stopped before its end
    view = state.view(state.to_move)
    for name, bot in LEVELS.items():
        action = bot.choose(view, random.Random(seed))
        assert action in state.legal_actions(), name


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_whole_games_between_the_levels_are_legal(players):
    rules = Rules(turn_limit=8)
    bots = [LEVELS[name] for name in ("hard", "medium", "easy", "hard")[:players]]
    state = GameState.new(rules, players, "levels")
    rng = random.Random(0)
    while not state.is_over:
        action = bots[state.to_move].choose(state.view(state.to_move), rng)
        assert action in state.legal_actions()
        state.apply(action)


@pytest.mark.parametrize("steps", [8, 9, 10, 11])
def test_the_same_view_seed_and_budget_give_the_same_action(steps):
    view = mid_round_view(steps=steps).view(mid_round_view(steps=steps).to_move)
    first = HardBot(0.01, time_cap=False).choose(view, random.Random("seed"))
    again = HardBot(0.01, time_cap=False).choose(view, random.Random("seed"))
    assert first == again


CHOICE_SCRIPT = """
import random
from games.engine.bots import HardBot
from tests.engine.helpers import mid_round_view
state = mid_round_view(steps=9)
print(HardBot(0.01, time_cap=False).choose(state.view(state.to_move), random.Random("x")))
"""


def test_the_hard_choice_does_not_depend_on_the_hash_seed():
    """Set order of cards changes with PYTHONHASHSEED; the choice must not."""
    choices = {
        subprocess.run(
            [sys.executable, "-c", CHOICE_SCRIPT],
            env={"PYTHONHASHSEED": str(hash_seed), "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in (1, 2, 3)
    }
    assert len(choices) == 1


def hide_the_unseen(state: GameState, seat: int, seed: str) -> GameState:
    """The same game as `seat` sees it, with every card it cannot see dealt again: the other
    hands and the stock shuffled together (each hand keeps its size, the stock its size)."""
    other = GameState.from_dict(state.to_dict())
    others = [s for s in range(state.players) if s != seat]
    taken = {c for who, kind, c in state.pile_events if who in others and kind == "took"}
    keep = {s: [c for c in other.hands[s] if c in taken] for s in others}  # everybody saw these
    pool = [c for s in others for c in other.hands[s] if c not in taken] + other.stock
    random.Random(seed).shuffle(pool)
    for s in others:
        need = len(other.hands[s]) - len(keep[s])
        other.hands[s], pool = keep[s] + pool[:need], pool[need:]
    other.stock = pool
    return other


@pytest.mark.parametrize("steps", [5, 9, 14, 21])
def test_a_bot_reads_nothing_but_its_view(steps):
    state = mid_round_view(steps=steps)
    seat = state.to_move
    blind = hide_the_unseen(state, seat, f"hide{steps}")
    assert blind.hands != state.hands or blind.stock != state.stock
    assert blind.view(seat) == state.view(seat)
    for name, bot in LEVELS.items():
        choice = bot.choose(state.view(seat), random.Random(steps))
        assert bot.choose(blind.view(seat), random.Random(steps)) == choice, name


def test_a_view_stripped_of_the_finished_rounds_gives_the_same_choice():
    """The search looks at the round being played only."""
    state = mid_round_view(steps=7)
    view = state.view(state.to_move)
    stripped = replace(view, round_results=(), scores=(), totals=(0,) * view.players)
    bot = tiny_hard()
    assert bot.choose(stripped, random.Random(1)) == bot.choose(view, random.Random(1))


# -- what each level promises --------------------------------------------------------------------


def test_easy_sometimes_throws_a_card_it_should_keep():
    state = make_state(["5H 6H 7H KS 9C", "9D 10D QS 2C 3C"], stock="2D", round_index=2)
    state.apply(Draw(0, "stock"))
    view = state.view(0)
    best = MediumBot().choose(view, random.Random(0))
    picks = [EasyBot().choose(view, random.Random(i)) for i in range(60)]
    assert all(pick in state.legal_actions() for pick in picks)
    assert 0 < sum(pick != best for pick in picks) < 60


def test_medium_does_not_feed_the_next_player_a_card_it_wants():
    # KC or QS: either leaves 10. Seat 1 was seen taking the QD, so the QS stays home.
    hands = ["5H 6H 7H KC", "9C 2S 3S 10C"]
    state = make_state(hands, discard="8C QD", to_move=1, round_index=1, stock="QS")
    state.apply(Draw(1, "discard"))
    state.apply(Discard(1, Card(9, "C")))
    state.apply(Draw(0, "stock"))
    assert MediumBot().choose(state.view(0), random.Random(0)) == Discard(0, Card(13, "C"))
    unseen = make_state(hands, discard="8C 9C", to_move=0, round_index=1, stock="QS")
    unseen.apply(Draw(0, "stock"))  # nobody took a queen: the tie goes to the lower card
    assert MediumBot().choose(unseen.view(0), random.Random(0)) == Discard(0, Card(12, "S"))


def test_hard_goes_out_when_it_can():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="7H")
    state.apply(Draw(0, "stock"))
    assert tiny_hard().choose(state.view(0), random.Random(0)) == GoOut(0, Card(13, "S"))


def test_hard_takes_a_discard_that_completes_its_hand_in_the_last_turn():
    state = make_state(["9C 10D QS", "5H 6H KS"], discard="JC 7H", to_move=1)
    state.apply(Draw(1, "discard"))
    state.apply(GoOut(1, Card(13, "S")))  # seat 1 threw the KS; seat 0 has its last turn
    state.hands[0] = cards("8C 9C KD")
    state.discard_pile.append(Card(10, "C"))
    assert tiny_hard().choose(state.view(0), random.Random(0)) == Draw(0, "discard")


def test_samples_put_cards_seen_taken_in_the_taker_s_hand():
    state = mid_round_view(steps=0, players=2)
    top = state.discard_pile[-1]
    state.apply(Draw(state.to_move, "discard"))
    taker = state.to_move
    state.apply(Discard(taker, next(c for c in state.hands[taker] if c != top)))
    seat = state.to_move
    view = state.view(seat)
    knowledge = knowledge_of(view)
    assert top in knowledge.held[taker] and top not in knowledge.unseen
    assert view.top_discard not in knowledge.unseen
    weights = {taker: [1.0] * len(knowledge.unseen)}
    hands, stock = sample_deal(knowledge, view, weights, [taker], random.Random(0))
    assert top in hands[taker] and len(hands[taker]) == view.card_counts[taker]
    assert len(stock) == view.stock_size
    assert not set(stock) & set(hands[taker])


@pytest.mark.parametrize(("steps", "players"), [(0, 2), (9, 2), (14, 3), (21, 4)])
def test_the_outlook_prices_every_possible_draw_as_the_solver_does(steps, players):
    """P1 takes a shortcut for cards that cannot meld with the hand: it must agree with the
    solver on every draw, and the draw odds must be a distribution over unseen faces."""
    state = mid_round_view(steps=steps, players=players)
    view = state.view(state.to_move)
    knowledge = knowledge_of(view)
    outlook = Outlook(view, knowledge)
    assert sum(p for _card, p in outlook.odds) == pytest.approx(1)
    assert {card for card, _p in outlook.odds} <= set(knowledge.unseen)
    hand = list(view.hand)[: view.hand_size]  # between turns: the hand a discard leaves
    bonus = OUT_BONUS_PER_CARD * view.hand_size if players == 2 else OUT_BONUS
    expected = 0.0
    for card, p in outlook.odds:
        best = min(discard_options([*hand, card], view.wild_rank, view.rules).values())
        expected += p * (best if best else -bonus)
    assert outlook.after_draw(hand) == pytest.approx(expected)


@pytest.mark.parametrize("round_index", [0, 5, 10])
def test_going_out_is_worth_more_the_larger_the_two_player_hand(round_index):
    """Two players: going out collects the other seat's deadwood, which grows with the hand, so
    the bonus is per card dealt; three or more keep the flat bonus."""
    for players, bonus in ((2, OUT_BONUS_PER_CARD * (round_index + 3)), (3, OUT_BONUS)):
        state = GameState.new(Rules(), players, "bonus")
        state.round_index = round_index
        state._deal()
        view = state.view(state.to_move)
        assert Outlook(view, knowledge_of(view)).out_bonus == bonus


def feeding_view():
    """The 2C and the 2D leave the same hand value; seat 1 took the 3C and holds the 4C, so the
    2C would give it a run."""
    state = make_state(["8H 9H 10H 2D 2C", "4C 10D QS KD 5S"], discard="8S 3C", to_move=1,
                       round_index=2, stock="AS")  # fmt: skip
    state.apply(Draw(1, "discard"))
    state.apply(Discard(1, Card(13, "D")))
    state.apply(Draw(0, "stock"))
    return state.view(0)


def test_hard_charges_a_discard_for_what_it_gives_the_next_seat(monkeypatch):
    # With the charge on (games of three or more), priced on seat 1's sampled hands, the 2C
    # stays home; with neither the charge nor the bait the two leave the same value.
    view = feeding_view()
    monkeypatch.setattr(hard, "BAIT", 0.0)
    monkeypatch.setattr(hard, "FEED_WEIGHT_TWO_PLAYERS", hard.FEED_WEIGHT)
    assert tiny_hard().choose(view, random.Random(0)) == Discard(0, Card(2, "D"))
    monkeypatch.setattr(hard, "FEED_WEIGHT_TWO_PLAYERS", 0.0)
    assert tiny_hard().choose(view, random.Random(0)) == Discard(0, Card(2, "C"))


def test_two_player_hard_baits_the_other_seat_with_a_card_it_would_only_swap_in():
    """In two-player games nothing is charged for what a discard gives (it lost in
    tournaments, docs/bots.md), but a card the other seat would take only to lower its penalty
    earns the bait: the 2D melds with nothing seat 1 is known to hold, the 2C makes it a run."""
    assert hard.FEED_WEIGHT_TWO_PLAYERS == 0.0 and hard.BAIT > 0
    view = feeding_view()
    held = [Card(3, "C"), Card(12, "S")]
    assert hard._answer(held, Card(2, "D"), view.wild_rank, view.rules) == (8, False)
    assert hard._answer(held, Card(2, "C"), view.wild_rank, view.rules) == (8, True)
    assert hard._answer(held, Card(13, "H"), view.wild_rank, view.rules) == (0, False)
    assert tiny_hard().choose(view, random.Random(0)) == Discard(0, Card(2, "D"))


def test_sampled_hands_are_read_against_the_last_turn():
    """Of the sampled hands, those that explain the seat's last turn as the medium level's
    come first; the known cards stay where they are."""
    view = feeding_view()
    knowledge = knowledge_of(view)
    # Seat 1 took the 3C from the pile and threw the KD; seat 0 had taken nothing.
    assert knowledge.last_turn == (None, LastTurn(None, Card(3, "C"), Card(13, "D"), ()))
    known = Counter(knowledge.held[1])
    hands = sample_hands(knowledge, view, 1, 8, random.Random(0))
    assert len(hands) == 8
    for hand in hands:
        assert Card(3, "C") in hand and len(hand) == view.card_counts[1]
        assert explains(hand, knowledge.last_turn[1], known, view) > 0
    turn = knowledge.last_turn[1]
    broke = [Card(3, "C"), Card(13, "H"), Card(13, "C"), Card(4, "D"), Card(6, "H")]
    assert explains(broke, turn, known, view) == 0  # it broke up a set of kings
    low = [Card(3, "C"), Card(2, "H"), Card(6, "S"), Card(7, "D"), Card(9, "H")]
    assert explains(low, turn, known, view) == 1  # the KD was its costliest loose card
    # Had it drawn from the stock (the QH thrown, the KS let lie): a hand with the KC and the
    # KD would have taken the KS for a set, so the hand explains the turn only if one of those
    # two kings is the card it drew; any of the six cards might be.
    passed = LastTurn(Card(13, "S"), None, Card(12, "H"), ())
    kings = [Card(13, "C"), Card(13, "D"), Card(2, "H"), Card(3, "D"), Card(4, "S")]
    assert explains(kings, passed, Counter(), view) == pytest.approx(2 / 6)
    assert explains(kings, replace(passed, passed=None), Counter(), view) == 1


def test_out_of_time_hard_keeps_the_best_candidate_valued_so_far():
    """The budget is a cap: at 0 s the greedy-first candidate is the only one valued. (A
    three-player view: hard's choice there differs from the greedy one.)"""
    state = mid_round_view(steps=11, players=3)
    if state.phase == "draw":
        state.apply(Draw(state.to_move, "stock"))
    view = state.view(state.to_move)
    assert not any(isinstance(a, GoOut) for a in view.legal_actions)
    first = ranked_discards(view)[0][1]
    assert HardBot(0.0).choose(view, random.Random(0)) == Discard(view.seat, first)
    assert HardBot(0.0, time_cap=False).choose(view, random.Random(0)) != Discard(view.seat, first)
