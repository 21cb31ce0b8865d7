"""The meld solver: the least penalty a hand can leave, and an arrangement that leaves it.

Public API: `arrange`, `is_meld`, `discard_options`, `can_go_out`, `Arrangement`; `CACHE` is
what it remembers across calls (`CACHE.clear()` forgets it all).

Two exact methods, each checked against a brute-force search in the tests:
- `search`: the general memoized search (any per-meld cap on wilds, lay-offs onto table melds,
  any number of decks), the reference the fast path is tested against;
- `fast`: no table melds, and no cap or no more wilds than the cap; at most three copies of a
  card. It encodes a hand as an int (`encoding`), looks each suit up in the suit tables
  (`suits`), tries the sets across suits (`cross`) and sums the suits' rows by (min, +) over the
  wilds (`minplus`).

Shared facts (`legality`)
- Wilds (jokers and every card of the wild rank, even in its own place) are interchangeable
  inside melds, so both methods search over the *naturals* only and count wilds. The wilds left
  over are the cheapest ones, and melding a wild never costs anything.
- Dominance keeps candidate melds few without losing optimality: a set of 6+ naturals splits
  into two sets, and a run whose naturals span 6+ ranks splits into two runs (two halves never
  need more wilds than the whole and always have more room). So runs span at most 5 ranks; a
  single natural with two wilds is listed once, as a set (the meld with the most room).
- A run never holds two cards of one rank, so with aces high it may be Q-K-A or A-2-3 but not
  A..K..A: it is at most 13 long either way (docs/playing.md, "Variants": "never at both ends")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..cards import Card
from ..rules import Rules
from .cache import CACHE
from .fast import fast_arrange, fast_hand
from .legality import Arrangement, is_meld, wilds_of
from .search import GeneralSearch

__all__ = [
    "CACHE",
    "Arrangement",
    "arrange",
    "can_go_out",
    "discard_options",
    "going_out_rules",
    "is_meld",
]


def _cap_never_binds(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> bool:
    """True if a per-meld wild cap cannot matter: no cap, or no more wilds than it allows (then
    one meld may hold them all, as without a cap)."""
    cap = rules.max_wilds_per_meld
    return cap is None or len(wilds_of(hand, wild_rank)) <= cap


def arrange(
    hand: Sequence[Card],
    wild_rank: int | None,
    rules: Rules,
    table_melds: Sequence[Sequence[Card]] = (),
) -> Arrangement:
    """The arrangement of `hand` into melds (and, for redemption, lay-offs onto `table_melds`)
    that leaves the least penalty."""
    if not table_melds and (
        rules.max_wilds_per_meld is None or _cap_never_binds(hand, wild_rank, rules)
    ):
        result = fast_arrange(hand, wild_rank, rules)
        if result is not None:
            return result
    return GeneralSearch(hand, wild_rank, rules, table_melds).arrangement()


def discard_options(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> dict[Card, int]:
    """For each card of a hand just after drawing: the least penalty the other cards leave if it
    is discarded, all computed together."""
    if _cap_never_binds(hand, wild_rank, rules):
        fast = fast_hand(hand, wild_rank, rules)
        if fast is not None:
            return fast.discard_options()
    return GeneralSearch(hand, wild_rank, rules).discard_options()


def going_out_rules(rules: Rules) -> Rules:
    """`rules` with every left-over card costing something, so that a penalty of 0 means every
    card is in a meld: going out asks for that, and a wild left over under `wild_penalty=0`
    would pass for melded. Any card but such a wild costs at least 1 (an ace low)."""
    return replace(rules, wild_penalty=1) if rules.wild_penalty == 0 else rules


def can_go_out(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> list[Card]:
    """The cards whose discard leaves every other card of `hand` in melds."""
    options = discard_options(hand, wild_rank, going_out_rules(rules))
    return [c for c in hand if options[c] == 0]
