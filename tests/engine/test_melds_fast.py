"""The fast path (`melds.fast`) against the general search, its reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given

from games.engine import Rules, arrange
from games.engine.cards import make_deck
from games.engine.melds.search import GeneralSearch
from tests.examples import examples

from .melds_support import (
    DEFAULT,
    HIGH,
    cards,
    check_arrangement,
    faces,
    hands,
    penalty,
    rules_strategy,
    wild_rank_strategy,
)

pytestmark = pytest.mark.engine


@examples(1)
@given(hand=hands(max_size=16), wild_rank=wild_rank_strategy, rules=rules_strategy)
def test_fast_path_agrees_with_the_general_search(hand, wild_rank, rules):
    """Big hands are beyond brute force: the two exact methods check each other instead."""
    general = GeneralSearch(hand, wild_rank, rules)
    assert arrange(hand, wild_rank, rules).penalty == general.penalty()


def test_the_benchmark_shape_agrees_with_the_general_search():
    """The benchmark's 14-card two-deck hands with four wilds (seeded, so a failure replays):
    the fast path's arrangement is legal and as good as the general search's."""
    rng = random.Random("14 cards, 2 decks, 4 wilds")
    deck = make_deck(2)
    wilds = [c for c in deck if c.rank == 5]
    naturals = [c for c in deck if c.rank != 5]
    for rules in (DEFAULT, HIGH, Rules(face_cards_by_rank=True)):
        for _ in range(150):
            hand = rng.sample(wilds, 4) + rng.sample(naturals, 10)
            result = arrange(hand, 5, rules)
            check_arrangement(hand, 5, rules, result)
            general = GeneralSearch(hand, 5, rules)
            assert result.penalty == general.penalty(), faces(hand)


def test_free_wilds_too_few_for_an_all_wild_meld_stay_deadwood():
    """Wilds that cost nothing but are too few for an all-wild meld are deadwood, not a meld of
    one or two wilds (the penalty was right, the arrangement was not)."""
    free = Rules(all_wild_melds=True, wild_penalty=0)
    assert penalty("3H 5C 8D JC", wild_rank=8, rules=free) == 18
    assert penalty("8D 8C", wild_rank=8, rules=free) == 0
    assert arrange(cards("8D 8C"), 8, free).melds == []
    assert penalty("8D 8C 8H", wild_rank=8, rules=free) == 0
