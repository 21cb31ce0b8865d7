"""What the solver remembers across calls (`melds.cache`): forgetting changes no answer."""

from __future__ import annotations

import random

import pytest

from games.engine import Rules, arrange, discard_options
from games.engine.cards import make_deck
from games.engine.melds import CACHE
from games.engine.melds.search import GeneralSearch
from games.engine.melds.suits import suit_table

from .melds_support import check_arrangement, faces

pytestmark = pytest.mark.engine


def test_a_table_outgrowing_its_limit_forgets_and_stays_right(monkeypatch):
    """The suit table clears itself past a size limit (a long-running process); answers stay the
    general search's."""
    rules = Rules(aces_high=True, face_cards_by_rank=True)
    entries = suit_table(rules).entries
    monkeypatch.setattr(entries, "limit", 60)
    rng = random.Random("small table")
    deck = make_deck(2, jokers=True)
    for _ in range(60):
        hand = rng.sample(deck, 14)
        result = arrange(hand, 9, rules)
        check_arrangement(hand, 9, rules, result)
        general = GeneralSearch(hand, 9, rules)
        assert result.penalty == general.penalty(), faces(hand)
    assert len(suit_table(rules).entries) <= 61


def _answers(cases):
    out = []
    for hand, wild_rank, rules in cases:
        result = arrange(hand, wild_rank, rules)
        check_arrangement(hand, wild_rank, rules, result)
        out.append((result.penalty, discard_options(hand, wild_rank, rules)))
    return out


def test_clearing_the_cache_empties_every_table_and_changes_no_answer():
    """Every table the solver keeps lives in CACHE; `CACHE.clear()` empties them all (the suit
    tables with their own memos), and the same hands get the same answers after."""
    rng = random.Random("clear the cache")
    cases = []
    for rules in (Rules(), Rules(aces_high=True), Rules(max_wilds_per_meld=1)):
        for decks, wild_rank in ((1, None), (2, 5), (3, 2)):
            deck = make_deck(decks, jokers=decks > 1)
            cases += [(rng.sample(deck, 14), wild_rank, rules) for _ in range(15)]
    before = _answers(cases)
    sizes = CACHE.sizes()
    names = ("suit_tables", "contexts", "cross_sets", "run_layouts", "rows", "meld_shapes")
    for name in (*names, "candidates", "guards"):
        assert sizes[name], name  # the hands above used every kind of table
    assert any(name.startswith("suit table") and size for name, size in sizes.items())
    CACHE.clear()
    assert set(CACHE.sizes().values()) == {0}
    assert not CACHE.suit_tables and CACHE.last_context == (None, None, None)
    assert _answers(cases) == before
    CACHE.clear()
    assert _answers(list(reversed(cases))) == list(reversed(before))
