"""The general search (`melds.search`): redemption lay-offs onto table melds, which only it
handles, by hand and against the brute-force reference."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import arrange
from tests.examples import examples

from .melds_support import (
    DEFAULT,
    HIGH,
    ONE_WILD,
    brute_penalty,
    cards,
    check_arrangement,
    hands,
    penalty,
    rules_strategy,
    table_melds,
    wild_rank_strategy,
)

pytestmark = pytest.mark.engine


def test_layoff_onto_a_set_and_a_run():
    table = ["9S 9D 9H", "6H 7H 8H"]
    assert penalty("9C 5H 2D", table=table) == 2
    assert penalty("9C 5H 9H 2D", table=table) == 2  # a second 9H with two decks


def test_layoff_at_both_ends_of_a_run():
    assert penalty("5H 9H", table=["6H 7H 8H"]) == 0
    assert penalty("4H 9H", table=["6H 7H 8H"]) == 4  # no wild for the gap at 5
    assert penalty("4H 9H JK", table=["6H 7H 8H"]) == 0


def test_layoff_leaving_no_cards_scores_zero():
    result = arrange(cards("JK"), 7, DEFAULT, [cards("6H 7S 8H")])
    assert result.penalty == 0
    assert result.melds == [] and result.deadwood == []
    assert result.layoffs == [(0, cards("JK"))]


def test_layoff_wilds_count_against_the_cap():
    assert penalty("JK", wild_rank=7, rules=ONE_WILD, table=["6H 7S 8H"]) == 20
    assert penalty("JK", wild_rank=7, rules=ONE_WILD, table=["6H 7H 8H 9H"]) == 20
    assert penalty("JK", wild_rank=None, rules=ONE_WILD, table=["6H 7H 8H 9H"]) == 0


def test_layoff_onto_a_run_stays_a_run():
    assert penalty("QH KH AH", table=["9H 10H JH"]) == 1  # aces low: the ace is left
    assert penalty("QH KH AH", rules=HIGH, table=["9H 10H JH"]) == 0
    assert penalty("2H", rules=HIGH, table=["JH QH KH AH"]) == 2


def test_own_melds_and_layoffs_together():
    table = ["3S 3D 3C", "10D JD QD"]
    assert penalty("3H 9D KD 5C 6C 7C", table=table) == 0
    assert penalty("3H 9D KD 5C 6C 7C 8S", table=table) == 8


def test_invalid_table_meld_is_refused():
    with pytest.raises(ValueError):
        arrange(cards("5H"), None, DEFAULT, [cards("5S 6H 7D")])


@examples(1)
@given(data=st.data(), wild_rank=wild_rank_strategy, rules=rules_strategy)
def test_layoffs_match_brute_force(data, wild_rank, rules):
    hand = data.draw(hands(max_size=6, decks=2))
    table = data.draw(table_melds(wild_rank, rules))
    result = arrange(hand, wild_rank, rules, table)
    check_arrangement(hand, wild_rank, rules, result, table)
    assert result.penalty == brute_penalty(hand, wild_rank, rules, table)
