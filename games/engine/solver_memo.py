"""The solver's discard options remembered per hand: bots and the state ask the same questions
about the same hand, and a hand's key is cheap to build."""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

from .cards import Card
from .melds import discard_options, going_out_rules
from .rules import Rules

# Cards' own ordering and hash are Python-level (a dataclass's): a hand is sorted and keyed by
# the C-level tuples of their fields instead, which took a remembered answer from 40 to 9 us
# (bots' searches ask for the same hands again and again).
CARD_KEY = attrgetter("rank", "suit", "copy")
_OPTIONS: dict[tuple[object, ...], dict[Card, int]] = {}
_OPTIONS_LIMIT = 65536


def hand_key(hand: Iterable[Card]) -> tuple[tuple[int, str, int], ...]:
    """A hashable key for the multiset of cards `hand` (order ignored), cheap to build."""
    return tuple(sorted(map(CARD_KEY, hand)))


def cached_discard_options(hand: Iterable[Card], wild_rank: int, rules: Rules) -> dict[Card, int]:
    """`melds.discard_options`, remembered per hand. The result is shared: do not mutate it."""
    hand = list(hand)
    key = (hand_key(hand), wild_rank, rules)
    found = _OPTIONS.get(key)
    if found is None:
        if len(_OPTIONS) >= _OPTIONS_LIMIT:
            _OPTIONS.clear()
        found = _OPTIONS[key] = discard_options(sorted(hand, key=CARD_KEY), wild_rank, rules)
    return found


def cached_going_out_cards(hand: Iterable[Card], wild_rank: int, rules: Rules) -> list[Card]:
    """`melds.can_go_out`, remembered per hand: the cards whose discard leaves every other card
    in melds (not merely a penalty of 0)."""
    hand = list(hand)
    options = cached_discard_options(hand, wild_rank, going_out_rules(rules))
    return [card for card in hand if options[card] == 0]
