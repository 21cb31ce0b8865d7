"""The meld solver's public API (`arrange`, `discard_options`, `can_go_out`): hand-written cases
for every rule, and property tests against an independent brute-force reference."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import Arrangement, Rules, arrange, can_go_out, discard_options, is_meld
from tests.examples import examples

from .melds_support import (
    ALL_WILD,
    DEFAULT,
    FAST,
    HIGH,
    ONE_WILD,
    POOL,
    brute_all_in_melds,
    brute_penalty,
    cards,
    check_arrangement,
    faces,
    hands,
    penalty,
    rules_strategy,
    wild_rank_strategy,
)

pytestmark = pytest.mark.engine


# -- arrange: one case per rule ------------------------------------------------------------------


def test_contract_example():
    result = arrange(cards("7H 8H 9S JK QC QD"), wild_rank=9, rules=DEFAULT)
    assert result.penalty == 0
    assert result.deadwood == []


def test_empty_hand():
    assert arrange([], 3, DEFAULT) == Arrangement([], [], 0)


def test_aces_high_queen_king_ace():
    assert penalty("QH KH AH") == 21  # ace low: 10 + 10 + 1
    assert penalty("QH KH AH", rules=HIGH) == 0
    assert penalty("KH AH 2H", rules=HIGH) == 10 + 15 + 2  # never K-A-2


def test_aces_high_left_over_ace_costs_15():
    assert penalty("AS 5D", rules=HIGH) == 15 + 5
    assert penalty("AS 5D") == 1 + 5


def test_face_cards_by_rank():
    assert penalty("JS QD KC") == 30
    assert penalty("JS QD KC", rules=Rules(face_cards_by_rank=True)) == 11 + 12 + 13


def test_joker_costs_20_and_wild_its_face_value_or_15():
    assert penalty("JK 2D") == 22
    assert penalty("9S 2D", wild_rank=9) == 11
    assert penalty("9S 2D", wild_rank=9, rules=Rules(wild_penalty=15)) == 17
    assert penalty("KS", wild_rank=13, rules=Rules(face_cards_by_rank=True)) == 13
    assert penalty("JK", wild_rank=None, rules=Rules(wild_penalty=15)) == 20


def test_jokers_are_wild_without_a_wild_rank():
    assert penalty("5H 6H JK", wild_rank=None) == 0


def test_wild_in_its_own_place_counts_against_one_wild_per_meld():
    assert penalty("7H 8H 9H", wild_rank=7, rules=ONE_WILD) == 0
    # 7H and the joker are both wild: only one may join the run
    assert penalty("7H 8H 9H JK", wild_rank=7, rules=ONE_WILD) == 7
    assert penalty("7H 8H 9H JK", wild_rank=7) == 0


def test_one_wild_per_meld():
    assert penalty("5H JK JK") == 0
    assert penalty("5H JK JK", rules=ONE_WILD) == 5 + 20 + 20
    assert penalty("5H 5S JK JK", rules=ONE_WILD) == 20
    assert penalty("5H 5S 8C 8D JK JK", rules=ONE_WILD) == 0


def test_all_wild_melds():
    assert penalty("9S 9H 9D", wild_rank=9) == 27
    assert penalty("9S 9H 9D", wild_rank=9, rules=ALL_WILD) == 0
    assert penalty("JK JK JK JK 2C", wild_rank=None, rules=ALL_WILD) == 0
    assert penalty("JK JK JK 5H 9D", wild_rank=None) == 5  # the jokers join 9D; 5H is left


def test_duplicates_with_two_decks():
    assert penalty("7H 7H 7S") == 0
    assert penalty("7H 7H 8H") == 22  # no run holds two sevens
    assert penalty("7H 7H 8H 9H 7S") == 14  # 7H 8H 9H, leaving 7H 7S
    assert penalty("7H 7H 8H 9H 7S 7D") == 0  # 7H 8H 9H and 7H 7S 7D
    assert penalty("5H 6H 7H 5H 6H 7H") == 0  # two identical runs


def test_the_dearest_wilds_are_melded():
    # one wild per meld: the run takes one wild, the other is left; the joker is the dearer
    result = arrange(cards("5H 6H 7H 9S JK"), 9, ONE_WILD)
    assert faces(result.deadwood) == ["9S"] and result.penalty == 9
    assert penalty("5H 6H 7H 9S JK", 9, Rules(max_wilds_per_meld=1, wild_penalty=15)) == 15
    assert penalty("5H 6H 7H 9C 9D 9S JK 3C", 3, ONE_WILD) == 0  # two melds, a wild each
    result = arrange(cards("5H 6H 7H JK 3C 3D"), 3, ONE_WILD)
    assert faces(result.deadwood) == ["3C", "3D"] and result.penalty == 6


def test_no_meld_leaves_every_wild():
    assert penalty("5H JK") == 25
    assert penalty("5H 9S JK JK", 9, ONE_WILD) == 5 + 9 + 40


def test_more_wilds_than_one_run_can_hold():
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK"
    assert penalty(hand) == 0
    assert penalty(hand, rules=ONE_WILD) == 0  # split the run in two, a joker each
    assert penalty("AH 2H 3H 4H 5H JK JK JK JK JK JK JK JK JK", rules=ONE_WILD) == 20 * 7


def test_extended_round_aces_wild():
    assert penalty("AS AH 5D 6D", wild_rank=1, rules=HIGH) == 0


# -- discard options ------------------------------------------------------------------------------


def test_discard_options_and_going_out():
    hand = cards("7H 8H 9H 3C 3D 3S KH")
    options = discard_options(hand, None, DEFAULT)
    assert options[hand[6]] == 0
    assert options[hand[0]] == 8 + 9 + 10  # 8H 9H KH left
    assert can_go_out(hand, None, DEFAULT) == [hand[6]]


@pytest.mark.parametrize(
    ("text", "wild_rank", "rules"),
    [
        # the capped search: 5S joins the run, 5D is left over at no cost
        ("7H 8H 9H 5D 5S KC", 5, Rules(wild_penalty=0, max_wilds_per_meld=1)),
        # the fast path: wilds alone are no meld without all-wild melds
        ("3D 3S 3C 3H", 3, Rules(wild_penalty=0)),
    ],
)
def test_going_out_needs_every_other_card_in_melds_even_when_left_over_wilds_cost_nothing(
    text, wild_rank, rules
):
    hand = cards(text)
    assert discard_options(hand, wild_rank, rules)[hand[-1]] == 0  # the penalty is still 0
    assert can_go_out(hand, wild_rank, rules) == []


def test_discard_options_with_wilds_and_duplicates():
    hand = cards("5H 5H 6H JK 9S")
    options = discard_options(hand, 9, DEFAULT)
    assert set(options) == set(hand)
    for i, card in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        assert options[card] == arrange(rest, 9, DEFAULT).penalty


# -- property tests -------------------------------------------------------------------------------


@FAST
@given(hand=hands(), wild_rank=wild_rank_strategy, rules=rules_strategy)
def test_arrangement_is_legal_and_complete(hand, wild_rank, rules):
    check_arrangement(hand, wild_rank, rules, arrange(hand, wild_rank, rules))


@st.composite
def hand_with_partition(draw):
    """A hand built from random legal melds plus random deadwood: an arrangement to beat."""
    rules = draw(rules_strategy)
    wild_rank = draw(wild_rank_strategy)
    pool = list(POOL)
    melds = []
    for _ in range(draw(st.integers(0, 4))):
        candidates = draw(st.permutations(pool))[: draw(st.integers(3, 6))]
        suit, rank = draw(st.sampled_from("SHDC")), draw(st.integers(1, 13))
        kind = draw(st.sampled_from(["set", "run", "any"]))
        if kind == "set":
            candidates = [c for c in pool if c.rank == rank or rules.is_wild(c, wild_rank)]
        elif kind == "run":
            top = rank + draw(st.integers(2, 6))
            candidates = [
                c
                for c in pool
                if (c.suit == suit and rank <= c.rank <= top) or rules.is_wild(c, wild_rank)
            ]
        if len(candidates) < 3:
            continue
        meld = draw(st.lists(st.sampled_from(candidates), min_size=3, max_size=6, unique=True))
        if is_meld(meld, wild_rank, rules):
            melds.append(meld)
            pool = [c for c in pool if c not in meld]
    deadwood = draw(st.lists(st.sampled_from(pool), max_size=4, unique=True))
    return rules, wild_rank, melds, deadwood


@FAST
@given(case=hand_with_partition())
def test_never_worse_than_a_shown_arrangement(case):
    rules, wild_rank, melds, deadwood = case
    hand = [c for meld in melds for c in meld] + deadwood
    result = arrange(hand, wild_rank, rules)
    check_arrangement(hand, wild_rank, rules, result)
    assert result.penalty <= sum(rules.penalty(c, wild_rank) for c in deadwood)


@examples(2)
@given(hand=hands(max_size=8, decks=2), wild_rank=wild_rank_strategy, rules=rules_strategy)
def test_matches_brute_force_on_small_hands(hand, wild_rank, rules):
    assert arrange(hand, wild_rank, rules).penalty == brute_penalty(hand, wild_rank, rules)


@examples(2)
@given(
    hand=hands(max_size=8, decks=2),
    wild_rank=wild_rank_strategy,
    rules=rules_strategy,
    wild_penalty=st.sampled_from([0, None]),
)
def test_going_out_leaves_no_card_outside_a_meld(hand, wild_rank, rules, wild_penalty):
    rules = replace(rules, wild_penalty=wild_penalty)
    going_out = can_go_out(hand, wild_rank, rules)
    for i, card in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        assert (card in going_out) == brute_all_in_melds(rest, wild_rank, rules), faces(rest)


@examples(1 / 2)
@given(hand=hands(max_size=16), wild_rank=wild_rank_strategy, rules=rules_strategy)
def test_discard_options_match_arrange_without_each_card(hand, wild_rank, rules):
    options = discard_options(hand, wild_rank, rules)
    assert set(options) == set(hand)
    for i, card in enumerate(hand):
        assert options[card] == arrange(hand[:i] + hand[i + 1 :], wild_rank, rules).penalty
    assert set(can_go_out(hand, wild_rank, rules)) <= {c for c in hand if options[c] == 0}
