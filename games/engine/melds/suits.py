"""The suit tables: the best arrangements of one suit's naturals into runs and same-suit sets, for
every number of wilds the suit's melds may need.

Runs and same-suit sets live inside one suit; sets across suits (see `cross`) are the only link
between suits. For every suit vector (see `encoding`) a table, kept across calls in `CACHE`,
holds an entry from a memoized search that takes the suit's lowest card and tries deadwood, each
copy-set and each run starting there. Every suit of one deck (8192) and every suit of two decks of
up to FILL_CARDS cards (about 5000 more) are built on first use, in about a quarter of a second;
bigger suits as they come.

An entry is a plain tuple (read in the hot path, where a tuple's index beats a named field),
laid out as ENTRY_FIELDS names it; index it with the constants below:
- ROW: the least deadwood with melds needing at most w wilds, for w = 0, 1, ... (past its end: 0);
- CHOICES: for each w, (meld, wilds it needs, the suit left); meld None means "the lowest card is
  deadwood", else (kind, its naturals' ranks in run order), one shared object per shape;
- TOTAL: the penalty of every card of the suit; COUNT: how many cards it holds;
- HELD, DOUBLED: the low bit of each rank's field where the suit holds the rank once or more,
  twice or more;
- PADDED: ROW followed by zeros (at least PAD long), for the written-out (min, +) sums."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..cards import Card
from ..rules import Rules
from .cache import CACHE, Memo
from .cross import fill_one_deck
from .encoding import FIELD, UNIT, card_codes, count, doubled, held
from .legality import MAX_SET_NATURALS, runs_from
from .minplus import PAD

ENTRY_FIELDS = ("row", "choices", "total", "count", "held", "doubled", "padded")
ROW, CHOICES, TOTAL, COUNT, HELD, DOUBLED, PADDED = range(len(ENTRY_FIELDS))
EMPTY_SUIT = ((0,), (None,), 0, 0, 0, 0, (0,) * PAD)
BIG = 1 << 30  # more deadwood than any hand holds
FILL_CARDS = 5  # two-deck suits of up to this many cards are built with the table
ENTRY_LIMIT = 100_000  # entries per table (~0.5 kB each) before it forgets them
SPECS_LIMIT = 20_000  # melds of a suit laid out for one share of the wilds


class SuitMeld(NamedTuple):
    """A meld of one suit's best arrangement."""

    kind: str  # "set" or "run"
    ranks: tuple[int, ...]  # its naturals' ranks, in run order
    need: int  # wilds it needs


# A meld to lay out of a hand's cards, a plain tuple read in the hot path: (kind, its naturals'
# ranks in run order, their codes (see `encoding.Context`), the wilds it needs).
MeldSpec = tuple[str, tuple[int, ...], tuple[int, ...], int]
# A suit's entry: the ENTRY_FIELDS, of mixed types (see the module's docstring).
Entry = tuple[Any, ...]
# A way to place a suit's lowest card: (wilds needed, deadwood added, the suit left, its meld:
# None for deadwood, else (kind, ranks)).
Option = tuple[int, int, int, tuple[str, tuple[int, ...]] | None]


class SuitTable:
    """The suit tables for one set of penalty switches (aces high, face cards by rank)."""

    def __init__(self, pens: tuple[int, ...], aces_high: bool):
        self.pens = pens  # penalty by rank (index 0 unused)
        self.aces_high = aces_high
        self.entries = Memo(ENTRY_LIMIT)  # suit -> entry (see the module's docstring)
        self.plans = Memo(ENTRY_LIMIT)  # (suit, wilds) -> its melds (`SuitMeld`s)
        self.plans0 = Memo(ENTRY_LIMIT)  # suit -> its melds' ranks without wilds
        self.specs = Memo(SPECS_LIMIT)  # suit << 5 | wilds -> `MeldSpec`s per suit number
        self.cross_rows = Memo(ENTRY_LIMIT)  # a rank's cross-suit choices, see `cross`
        self.codes = card_codes(pens)  # each natural's code by suit number and rank

    def memos(self) -> dict[str, Memo]:
        return {
            "entries": self.entries,
            "plans": self.plans,
            "plans0": self.plans0,
            "specs": self.specs,
            "cross rows": self.cross_rows,
        }

    def entry(self, m: int) -> Entry:
        hit = self.entries.get(m)
        return hit if hit is not None else self.compute(m)

    def fill(self) -> None:
        """Every suit of a single deck (8192 of them, and the melds of each without wilds), then
        every suit of two decks of up to FILL_CARDS cards (about 5000 more): a quarter of a
        second in all, after which a fresh hand seldom waits for its suits."""
        for bits in range(1 << 13):
            m = sum(UNIT[q + 1] for q in range(13) if bits >> q & 1)
            entry = self.entry(m)
            if entry[ROW][0] < entry[TOTAL]:
                self.plan(m, 0)
        suits = [0]
        for q in range(13):  # a rank at a time: 0, 1 or 2 copies, FILL_CARDS at most in all
            suits = [
                m + k * UNIT[q + 1] for m in suits for k in range(3) if count(m) + k <= FILL_CARDS
            ]
        for m in suits:
            self.entry(m)

    def plan0(self, m: int) -> tuple[tuple[int, ...], ...]:
        """The ranks of each meld of the best arrangement of suit `m` without wilds."""
        melds = self.plans0.get(m)
        if melds is None:
            melds = self.plans0.keep(m, tuple(meld.ranks for meld in self.plan(m, 0)))
        return melds

    def plan(self, m: int, w: int) -> tuple[SuitMeld, ...]:
        """The melds of the best arrangement of suit `m` with `w` wilds."""
        key = (m, w)
        melds = self.plans.get(key)
        if melds is None:
            found = []
            while m:
                choices = self.entry(m)[CHOICES]
                meld, need, sub = choices[min(w, len(choices) - 1)]
                if meld is not None:
                    kind, ranks = meld
                    found.append(SuitMeld(kind, ranks, need))
                w -= need
                m = sub
            melds = self.plans.keep(key, tuple(found))
        return melds

    def suit_specs(self, m: int, w: int) -> tuple[tuple[MeldSpec, ...], ...]:
        """`plan(m, w)` as suit number 0, 1, 2 and 3, remembered under `m << 5 | w`."""
        plan = self.plan(m, w)
        found = tuple(
            [
                tuple(
                    [
                        (kind, ranks, tuple([codes[r] for r in ranks]), need)
                        for kind, ranks, need in plan
                    ]
                )
                for codes in self.codes
            ]
        )
        return self.specs.keep(m << 5 | w, found)

    def _options(self, m: int) -> list[Option]:
        """Ways to place the lowest card of suit `m`: (wilds needed, deadwood added, the suit
        left, meld), meld None for "deadwood", else (kind, ranks) as in an entry's CHOICES."""
        shapes = CACHE.meld_shapes
        shift = (m & -m).bit_length() - 1
        base = shift - shift % FIELD
        rank = base // FIELD + 1
        unit = 1 << base
        options: list[Option] = [(0, self.pens[rank], m - unit, None)]
        for k in range(1, min((m >> base) & 3, MAX_SET_NATURALS) + 1):
            meld = ("set", (rank,) * k)
            meld = shapes.get(meld) or shapes.keep(meld, meld)
            options.append((max(0, 3 - k), 0, m - k * unit, meld))
        present = [q for q in range(rank + 1, 14) if m >> FIELD * (q - 1) & 3]
        for ranks, span in runs_from(rank, present, self.aces_high):
            need = max(3, span) - len(ranks)
            sub = m - sum(UNIT[q] for q in ranks)
            meld = ("run", ranks)
            meld = shapes.get(meld) or shapes.keep(meld, meld)
            options.append((need, 0, sub, meld))
        return options

    def compute(self, m: int) -> Entry:
        """The entry of suit `m` (see the module's docstring), remembered."""
        if not m:
            return self.entries.keep(0, EMPTY_SUIT)
        counts = [(m >> FIELD * q) & 3 for q in range(13)]
        naturals = sum(counts)
        total = sum(pen * n for pen, n in zip(self.pens[1:], counts, strict=True))
        length = 2 * naturals + 1
        values = [BIG] * length
        choices: list[tuple[Any, int, int] | None] = [None] * length
        for need, add, sub, meld in self._options(m):
            choice = (meld, need, sub)  # one object, shared by every w it wins
            sub_values = self.entry(sub)[ROW]
            last = len(sub_values) - 1
            for w in range(need, length):
                i = w - need
                v = add + (sub_values[i] if i <= last else 0)
                if v < values[w]:
                    values[w] = v
                    choices[w] = choice
        end = values.index(0) + 1 if 0 in values else length
        # rows repeat across suits: one shared object each keeps the table small
        rows = CACHE.rows
        row = tuple(values[:end])
        row = rows.get(row) or rows.keep(row, row)
        padded = row + (0,) * (PAD - len(row)) if len(row) < PAD else row
        padded = rows.get(padded) or rows.keep(padded, padded)
        entry = (row, tuple(choices[:end]), total, naturals, held(m), doubled(m), padded)
        return self.entries.keep(m, entry)


def suit_table(rules: Rules) -> SuitTable:
    """The suit tables for `rules`' penalty switches, built (and filled) on first use."""
    key = (rules.aces_high, rules.face_cards_by_rank)
    table = CACHE.suit_tables.get(key)
    if table is None:
        pens = (0, *(rules.face_value(Card(r, "S")) for r in range(1, 14)))
        table = CACHE.suit_tables.keep(key, SuitTable(pens, rules.aces_high))
        table.fill()
        fill_one_deck()
    return table
