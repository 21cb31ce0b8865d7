"""The fast path's encoding of cards as ints: the layout of a suit and of a whole hand, written
down once here.

A suit vector (or "suit", `m`) holds FIELD = 2 bits of count per rank, ace lowest: up to three
copies of a card (three decks). UNIT[r] is one card of rank r.

A hand's code is the sum of its cards' codes (one look-up per card, see `Context`), laid out from
the lowest bit:
- the four suit vectors side by side, SUIT_BITS apart (suit number i = SUITS[i]);
- a few spare bits that catch a count overflowing out of the last suit (SUIT_OVERFLOW);
- the naturals' penalty (16 bits at PEN_SHIFT);
- the number of wilds (16 bits at WILD_SHIFT: every wild's code is WILD_ONE);
- how many naturals of each rank, 3 bits per rank at RANKS_SHIFT (only meaningful when no card is
  held twice, so that no field overflows).

A card's key names its face as suit number << 4 | rank (an int: cheaper than a pair)."""

from __future__ import annotations

from typing import Protocol

from ..cards import JOKER_SUIT, SUITS
from .cache import Memo


class SuitTables(Protocol):
    """What the encoding and the cross-suit choices read of the suit tables (suits.SuitTable),
    named here, below both, so that neither imports the module that imports them."""

    @property
    def pens(self) -> tuple[int, ...]: ...
    @property
    def codes(self) -> list[tuple[int, ...]]: ...
    @property
    def cross_rows(self) -> Memo: ...


FIELD = 2  # bits per rank in a suit vector
UNIT = (0, *(1 << FIELD * (r - 1) for r in range(1, 14)))  # one card of rank r (ace = 1)
LOW_BITS = sum(1 << FIELD * q for q in range(13))  # the low bit of every rank's field
SUIT_OF = {s: i for i, s in enumerate(SUITS)}  # suit letter -> suit number

SUIT_BITS = FIELD * 13
SUIT_MASK = (1 << SUIT_BITS) - 1
ALL_SUITS = (1 << 4 * SUIT_BITS) - 1
PEN_SHIFT = 4 * SUIT_BITS + 6
SUIT_OVERFLOW = (1 << PEN_SHIFT) - (1 << 4 * SUIT_BITS)  # the spare bits below the penalty
PEN_MASK = (1 << 16) - 1
WILD_SHIFT = PEN_SHIFT + 16
WILD_ONE = 1 << WILD_SHIFT
WILD_MASK = (1 << 16) - 1
WILD_FIELD = WILD_MASK << WILD_SHIFT
RANKS_SHIFT = WILD_SHIFT + 16
RANKS_LOW = sum(1 << 3 * q for q in range(13))  # the low bit of every rank's count
LOW_ALL = sum(LOW_BITS << SUIT_BITS * i for i in range(4))
DOUBLED_OR_WILD = LOW_ALL << 1 | WILD_FIELD  # a card held twice or more, or a wild
# where three consecutive cards may start (ace to jack), and each suit's ace, in every suit
RUN_STARTS = sum(1 << FIELD * q + SUIT_BITS * i for q in range(11) for i in range(4))
ACES = sum(1 << SUIT_BITS * i for i in range(4))


def card_codes(pens: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Each natural's code by suit number and rank (rank 0 unused), for penalties `pens`."""
    return [
        (
            0,
            *(
                UNIT[r] << SUIT_BITS * i | pens[r] << PEN_SHIFT | 1 << RANKS_SHIFT + 3 * (r - 1)
                for r in range(1, 14)
            ),
        )
        for i in range(4)
    ]


def suits_of(code: int) -> list[int]:
    """The four suit vectors of a hand's code (or of any int holding them side by side)."""
    return [
        code & SUIT_MASK,
        code >> SUIT_BITS & SUIT_MASK,
        code >> 2 * SUIT_BITS & SUIT_MASK,
        code >> 3 * SUIT_BITS & SUIT_MASK,
    ]


def joined(suits: list[int]) -> int:
    """The four suit vectors side by side, as in a hand's code."""
    return suits[0] | suits[1] << SUIT_BITS | suits[2] << 2 * SUIT_BITS | suits[3] << 3 * SUIT_BITS


def held(m: int) -> int:
    """The low bit of each rank's field where suit `m` holds that rank at least once."""
    return (m | m >> 1) & LOW_BITS


def doubled(m: int) -> int:
    """The low bit of each rank's field where suit `m` holds that rank at least twice."""
    return m >> 1 & LOW_BITS


def count(m: int) -> int:
    """How many cards suit `m` holds."""
    return (m & LOW_BITS).bit_count() + 2 * (m >> 1 & LOW_BITS).bit_count()


def lone(m: int, aces_high: bool) -> int:
    """The cards of suit `m` (held once each) with no neighbour in it: they fit no run."""
    alone = m & ~(m << FIELD | m >> FIELD)
    if aces_high and m & 1 and m >> 12 * FIELD & 1:  # the ace and the king are neighbours
        alone &= ~(1 | 1 << 12 * FIELD)
    return alone


class Context[Tables: SuitTables]:
    """What the fast path needs for one wild rank and one set of penalty switches: each card's
    code (`enc`, by suit letter then rank; `suit_enc`, by suit number then rank) and the suit
    table for the penalty switches."""

    __slots__ = ("aces_high", "enc", "suit_enc", "table")

    def __init__(self, wild_rank: int | None, table: Tables, aces_high: bool) -> None:
        self.table = table
        self.aces_high = aces_high
        self.enc: dict[str, tuple[int, ...]] = {JOKER_SUIT: (WILD_ONE,)}
        for i, suit in enumerate(SUITS):
            codes = table.codes[i]
            self.enc[suit] = tuple(WILD_ONE if r == wild_rank else codes[r] for r in range(14))
        self.suit_enc = [self.enc[suit] for suit in SUITS]
