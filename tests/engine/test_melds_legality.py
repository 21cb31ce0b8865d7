"""Meld legality (`melds.legality`): one case per rule."""

from __future__ import annotations

import pytest

from games.engine import Rules, is_meld

from .melds_support import ALL_WILD, DEFAULT, HIGH, ONE_WILD, cards

pytestmark = pytest.mark.engine


@pytest.mark.parametrize(
    ("text", "wild_rank", "rules", "expected"),
    [
        ("7S 7H 7D", None, DEFAULT, True),
        ("7S 7H", None, DEFAULT, False),
        ("AH 2H 3H", None, DEFAULT, True),
        ("3H 2H AH", None, DEFAULT, True),  # order does not matter
        ("AH 2H 3S", None, DEFAULT, False),
        ("QH KH AH", None, DEFAULT, False),  # aces low
        ("QH KH AH", None, HIGH, True),
        ("AH 2H 3H", None, HIGH, True),  # ace high may still be low
        ("KH AH 2H", None, HIGH, False),  # no wrapping, ever
        ("KH AH 2H", None, DEFAULT, False),
        ("5H 6H 6H 7H", None, DEFAULT, False),  # no repeated rank in a run
        ("5H 5H 5S", None, DEFAULT, True),  # two decks: one card twice in a set
        ("5H 5H 5H", None, DEFAULT, True),
        ("5H JK 7H", None, DEFAULT, True),  # a joker fills the gap
        ("5H JK 8H", None, DEFAULT, False),
        ("5H 9S 7H", 9, DEFAULT, True),  # the 9 is wild in the 9s round
        ("7H 8H 9H", 7, DEFAULT, True),  # the 7 stands in its own place and is still a wild
        ("7H 8H 9H JK", 7, ONE_WILD, False),  # ... so with a joker it holds two wilds
        ("7H 8H 9H", 7, ONE_WILD, True),
        ("5H JK JK", None, DEFAULT, True),
        ("5H JK JK", None, ONE_WILD, False),
        ("9S 9H 9D", 9, DEFAULT, False),  # all wild
        ("9S 9H 9D", 9, ALL_WILD, True),
        ("JK JK JK", None, DEFAULT, False),
        ("JK JK JK", None, ALL_WILD, True),
        ("JK JK JK", None, Rules(all_wild_melds=True, max_wilds_per_meld=2), False),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None, DEFAULT, True),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", None, HIGH, False),  # never both ends
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", None, HIGH, True),
        ("JH QH JK JK", None, HIGH, True),  # the wilds may be K and A
        ("5S JK JK JK JK JK JK JK JK JK JK JK JK JK JK", None, DEFAULT, True),  # a set of 15
    ],
)
def test_is_meld(text, wild_rank, rules, expected):
    assert is_meld(cards(text), wild_rank, rules) is expected
