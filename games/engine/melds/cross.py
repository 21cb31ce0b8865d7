"""Sets across suits: the only link between the suits of a hand on the fast path.

With no cap on wilds two sets of one rank are never better than the two merged, so one set per
rank (of any size) is enough; a cross-suit set has two naturals or more, so it needs one wild at
most, and without wilds only ranks held three times qualify.

A rank that could make one is named by its key (`cross_keys`): an int holding its count in each
suit, its bit position in a suit vector and whether wilds may help. A choice of sets for a hand
(`cross_choices`) is a plain tuple, read in the hot path: (wilds needed, the naturals taken as a
part of a hand's code, the penalty they would have cost, the `CrossSet`s)."""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

from .cache import CACHE
from .encoding import FIELD, LOW_BITS, SuitTables, joined

# A choice of cross-suit sets: (wilds needed, naturals taken, penalty saved, the sets).
Choice = tuple[int, int, int, tuple["CrossSet", ...]]
NO_CHOICE: list[Choice] = [(0, 0, 0, ())]  # no cross-suit set at all


class CrossOption(NamedTuple):
    """A set one rank's naturals can form across suits."""

    need: int  # wilds needed (0 or 1)
    taken: int  # the naturals it takes, as a part of a hand's code
    copies: tuple[int, ...]  # copies from each of the four suits
    rank: int
    naturals: int


class CrossSet(NamedTuple):
    """A cross-suit set chosen for a hand."""

    need: int  # wilds needed
    rank: int
    codes: tuple[int, ...]  # its naturals' codes (see `encoding.Context`)
    copies: tuple[int, ...]  # copies from each of the four suits


def cross_key(counts: tuple[int, ...], base: int, with_wilds: bool) -> int:
    """The key of a rank held `counts` times in each suit, at bit `base` of a suit vector."""
    packed = counts[0] | counts[1] << 2 | counts[2] << 4 | counts[3] << 6
    return (packed << 6 | base) << 1 | with_wilds


def cross_options(key: int) -> list[CrossOption]:
    """The sets across suits the rank of `key` can form, fewest wilds first (remembered)."""
    options = CACHE.cross_sets.get(key)
    if options is None:
        with_wilds, base = key & 1, key >> 1 & 63
        counts = [key >> 7 + 2 * s & 3 for s in range(4)]
        rank = base // FIELD + 1
        options = []
        for ks in product(*(range(n + 1) for n in counts)):
            need = max(0, 3 - sum(ks))
            if sum(1 for k in ks if k) >= 2 and (with_wilds or not need):
                taken = joined([k << base for k in ks])
                options.append(CrossOption(need, taken, ks, rank, sum(ks)))
        options.sort(key=lambda option: option.need)  # stable: copies stay in order
        CACHE.cross_sets.keep(key, options)
    return options


def fill_one_deck() -> None:
    """The cross-suit sets of every rank of one deck."""
    for packed in range(256):
        counts = tuple(packed >> 2 * s & 3 for s in range(4))
        if max(counts) < 2:
            for base in range(0, FIELD * 13, FIELD):
                cross_options(cross_key(counts, base, False))
                cross_options(cross_key(counts, base, True))


def cross_keys(suits: list[int], budget: int) -> list[int]:
    """The keys of the ranks held in two or more suits (that could make a set)."""
    m0, m1, m2, m3 = suits
    p0 = (m0 | m0 >> 1) & LOW_BITS
    p1 = (m1 | m1 >> 1) & LOW_BITS
    p2 = (m2 | m2 >> 1) & LOW_BITS
    p3 = (m3 | m3 >> 1) & LOW_BITS
    shared = (p0 & (p1 | p2 | p3)) | (p1 & (p2 | p3)) | (p2 & p3)
    if shared and not budget:  # a set without wilds needs three naturals
        twice = (m0 | m1 | m2 | m3) >> 1 & LOW_BITS  # some suit holds the rank twice
        shared &= twice | (p0 & p1 & (p2 | p3)) | ((p0 | p1) & p2 & p3)
    keys = []
    with_wilds = 1 if budget else 0
    while shared:
        low = shared & -shared
        shared ^= low
        base = low.bit_length() - 1
        packed = m0 >> base & 3 | (m1 >> base & 3) << 2 | (m2 >> base & 3) << 4
        keys.append(((packed | (m3 >> base & 3) << 6) << 6 | base) << 1 | with_wilds)
    return keys


def cross_choices(table: SuitTables, keys: list[int]) -> list[Choice]:
    """Every choice of cross-suit sets for the ranks of `keys` (one set at most per rank; none
    at all first, and alone if `keys` is empty), as tuples (see the module's docstring). Each
    rank's own list is remembered in the suit `table` (its penalties and card codes)."""
    rows = table.cross_rows
    choices: list[Choice] | None = None
    for key in keys:
        row = rows.get(key)
        if row is None:
            row = rows.keep(key, NO_CHOICE + [_choice(table, o) for o in cross_options(key)])
        if choices is None:
            choices = row
        else:
            choices = [
                (n1 + n2, t1 + t2, g1 + g2, s1 + s2)
                for n1, t1, g1, s1 in choices
                for n2, t2, g2, s2 in row
            ]
    return choices or NO_CHOICE


def _choice(table: SuitTables, option: CrossOption) -> Choice:
    codes = tuple(table.codes[s][option.rank] for s in range(4) for _ in range(option.copies[s]))
    cross_set = CrossSet(option.need, option.rank, codes, option.copies)
    return (option.need, option.taken, table.pens[option.rank] * option.naturals, (cross_set,))
