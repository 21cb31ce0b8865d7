"""What a meld is, and the rules of runs every part of the solver shares: which cards are wild,
how many ranks a run spans (aces high or low), where a run's wilds go, and which runs a card can
start. Each rule is written here once."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ..cards import Card
from ..rules import Rules

MAX_RUN = 13  # a run never holds two cards of one rank, so with aces high Q-K-A or A-2-3
MAX_SET_NATURALS = 5  # a set of 6+ naturals splits into two sets that need no more wilds
MAX_RUN_SPAN = 5  # a run spanning 6+ ranks splits into two runs that need no more wilds
UNLIMITED = 1 << 20  # room for wilds without a per-meld cap


@dataclass(frozen=True)
class Arrangement:
    melds: list[list[Card]]
    deadwood: list[Card]
    penalty: int
    layoffs: list[tuple[int, list[Card]]] = field(default_factory=list)


def make_arrangement(
    melds: list[list[Card]],
    deadwood: list[Card],
    penalty: int,
    layoffs: list[tuple[int, list[Card]]] | None = None,
) -> Arrangement:
    """Arrangement(...) without the frozen dataclass's per-field __setattr__ (a hot path)."""
    result = object.__new__(Arrangement)
    fields = result.__dict__
    fields["melds"] = melds
    fields["deadwood"] = deadwood
    fields["penalty"] = penalty
    fields["layoffs"] = [] if layoffs is None else layoffs
    return result


def is_wild(card: Card, wild_rank: int | None) -> bool:
    """Jokers (rank 0) and every card of the wild rank, even in its own place (as
    `Rules.is_wild`, without a property look-up per card)."""
    return not card.rank or card.rank == wild_rank


def wilds_of(cards: Iterable[Card], wild_rank: int | None) -> list[Card]:
    return [c for c in cards if is_wild(c, wild_rank)]


def naturals_of(cards: Iterable[Card], wild_rank: int | None) -> list[Card]:
    return [c for c in cards if not is_wild(c, wild_rank)]


def run_order(ranks: Iterable[int], aces_high: bool) -> tuple[int, ...]:
    """A run's distinct natural ranks (ace = 1) in run order: an ace goes after the king when
    aces are high and that spans fewer ranks (a run never holds both ends)."""
    ordered = sorted(ranks)
    if aces_high and ordered[0] == 1 and len(ordered) > 1 and 15 - ordered[1] < ordered[-1]:
        return (*ordered[1:], 1)
    return tuple(ordered)


def position(rank: int, first: int) -> int:
    """Where `rank` sits in a run whose first natural is of rank `first`: an ace after others
    is high (14)."""
    return 14 if rank == 1 and first != 1 else rank


def run_span(ranks: Iterable[int], aces_high: bool) -> int:
    """The fewest consecutive ranks that hold `ranks` (distinct, ace = 1), ace low or high."""
    ordered = run_order(ranks, aces_high)
    return position(ordered[-1], ordered[0]) - ordered[0] + 1


def runs_from(
    rank: int, held: Iterable[int], aces_high: bool
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every run (of MAX_RUN_SPAN ranks at most) whose lowest natural is of `rank`, with other
    naturals among the ranks `held`: (its naturals' ranks in run order, the ranks it spans).
    With aces high an ace is also the top of a run from the ten up."""
    held = set(held)
    top = min(rank + MAX_RUN_SPAN - 1, 13)
    windows = [(False, [q for q in range(rank + 1, top + 1) if q in held])]
    if rank == 1 and aces_high:
        windows.append((True, [q for q in range(15 - MAX_RUN_SPAN, 14) if q in held]))
    for high, present in windows:
        for size in range(1, len(present) + 1):
            for combo in combinations(present, size):
                if high:
                    yield (*combo, 1), 15 - combo[0]
                else:
                    yield (rank, *combo), combo[-1] - rank + 1


def lay_out_run[T](
    cards: list[T], ranks: Sequence[int], wilds: list[T], aces_high: bool
) -> list[T]:
    """A run in rank order: `cards` (naturals of `ranks`, both in run order), wilds in its gaps,
    then above the top (up to the ace), then below."""
    first = ranks[0]
    wilds = list(wilds)
    out = [cards[0]]
    last = first
    for card, rank in zip(cards[1:], ranks[1:], strict=True):
        pos = position(rank, first)
        gap = pos - last - 1
        if gap > 0:
            out.extend(wilds[:gap])
            del wilds[:gap]
        out.append(card)
        last = pos
    top = 14 if aces_high and first != 1 else 13
    above = max(0, min(len(wilds), top - last))
    return wilds[above:] + out + wilds[:above]


def is_meld(cards: Sequence[Card], wild_rank: int | None, rules: Rules) -> bool:
    n = len(cards)
    if n < 3:
        return False
    naturals = naturals_of(cards, wild_rank)
    wilds = n - len(naturals)
    if rules.max_wilds_per_meld is not None and wilds > rules.max_wilds_per_meld:
        return False
    if not naturals:
        return rules.all_wild_melds
    ranks = {c.rank for c in naturals}
    if len(ranks) == 1:
        return True
    if len({c.suit for c in naturals}) != 1 or len(ranks) != len(naturals):
        return False
    return n <= MAX_RUN and run_span(ranks, rules.aces_high) <= n
