"""The fast path (`melds.fast`) against the general search, its reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from games.engine import Rules, arrange
from games.engine.cards import make_deck
from games.engine.melds.search import GeneralSearch

from .melds_support import (
    DEFAULT,
    HIGH,
    check_arrangement,
    faces,
    hands,
    rules_strategy,
    wild_rank_strategy,
)

pytestmark = pytest.mark.engine


@settings(max_examples=150, deadline=None)
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
