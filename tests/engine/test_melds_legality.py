"""Meld legality (`melds.legality`): one case per rule, and the run rules the solver shares."""

from __future__ import annotations

import pytest

from games.engine import Rules, is_meld
from games.engine.melds.legality import MAX_RUN_SPAN, lay_out_run, run_order, run_span, runs_from

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


# -- the run rules every part of the solver shares -----------------------------------------------


def test_run_order_puts_a_high_ace_after_the_king():
    assert run_order([13, 1, 12], aces_high=True) == (12, 13, 1)
    assert run_order([13, 1, 12], aces_high=False) == (1, 12, 13)
    assert run_order([3, 1, 2], aces_high=True) == (1, 2, 3)  # ace high may still be low
    assert run_order([1], aces_high=True) == (1,)
    assert run_span({1, 12, 13}, aces_high=True) == 3
    assert run_span({1, 12, 13}, aces_high=False) == 13
    assert run_span({1, 10}, aces_high=True) == 5


def test_lay_out_run_fills_gaps_then_above_then_below():
    assert lay_out_run(["5", "7"], (5, 7), ["w1", "w2"], False) == ["5", "w1", "7", "w2"]
    assert lay_out_run(["Q", "K"], (12, 13), ["w"], False) == ["w", "Q", "K"]  # no room above
    assert lay_out_run(["Q", "K"], (12, 13), ["w"], True) == ["Q", "K", "w"]  # the wild is the ace
    assert lay_out_run(["K", "A"], (13, 1), ["w1", "w2"], True) == ["w1", "w2", "K", "A"]
    assert lay_out_run(["A", "2"], (1, 2), ["w1", "w2"], True) == ["A", "2", "w1", "w2"]


def test_runs_from_a_card_include_the_high_ace_only_with_aces_high():
    low = list(runs_from(1, [2, 3, 12, 13], aces_high=False))
    high = list(runs_from(1, [2, 3, 12, 13], aces_high=True))
    assert ((1, 2, 3), 3) in low and ((12, 13, 1), 3) not in low
    assert ((12, 13, 1), 3) in high and ((13, 1), 2) in high
    assert all(span <= MAX_RUN_SPAN for _, span in high)
    assert list(runs_from(9, [10, 14], aces_high=True)) == [((9, 10), 2)]
