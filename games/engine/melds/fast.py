"""The fast path: no table melds, and no per-meld cap on wilds or no more wilds than the cap; at
most three copies of a card.

- With no cap, once a hand holds any meld every left-over wild can join one: a set takes any
  number, and a hand of runs only can turn one run's end card into a set of its own (that card
  plus two wilds, a wild taking its place), which leaves no more deadwood. So the least penalty
  is the least natural deadwood whose melds need at most the wilds held; only a hand that can
  make no meld at all pays for its wilds (unless they form an all-wild meld).
- A hand is first encoded in one int (`encoding`), one look-up per card summed.
- A hand without wilds that holds no card twice (one deck) is settled by bit tests when it has
  no three consecutive cards of a suit and no rank three times: no meld, all deadwood. Otherwise
  its sets are ranks held in three or four suits; a set whose cards have no neighbour in their
  suit is always made (they fit nowhere else), the others are tried with and without.
- Other hands enumerate only their cross-suit sets (`cross`), and for each choice combine the
  four suits' rows (`suits`) by (min, +) over the wilds (`minplus`), after two cheap lower bounds
  have had their chance to skip it.
- Melds are assembled last: each suit's melds for its share of the wilds are remembered per suit
  and share, as card codes; the hand's cards are found by their codes.
- `discard_options` enumerates the cross-suit choices once; for each, the other three suits'
  combined row is built once per suit and reused for every card of that suit."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from typing import Any

from ..cards import Card
from ..rules import Rules
from .cache import CACHE
from .cross import CrossSet, cross_choices, cross_keys
from .encoding import (
    ACES,
    ALL_SUITS,
    DOUBLED_OR_WILD,
    FIELD,
    PEN_MASK,
    PEN_SHIFT,
    RANKS_LOW,
    RANKS_SHIFT,
    RUN_STARTS,
    SUIT_BITS,
    SUIT_MASK,
    SUIT_OF,
    SUIT_OVERFLOW,
    UNIT,
    WILD_FIELD,
    WILD_MASK,
    WILD_ONE,
    WILD_SHIFT,
    Context,
    joined,
    lone,
    suits_of,
)
from .legality import (
    MAX_RUN,
    Arrangement,
    is_wild,
    lay_out_run,
    make_arrangement,
    naturals_of,
    wilds_of,
)
from .minplus import PAD, SUMS, conv, least, point, split_budget
from .suits import (
    BIG,
    COUNT,
    DOUBLED,
    HELD,
    PADDED,
    ROW,
    TOTAL,
    Entry,
    MeldSpec,
    SuitTable,
    suit_table,
)


def context(wild_rank: int | None, rules: Rules) -> Context[SuitTable]:
    """The fast path's context for a wild rank and `rules`' penalty switches."""
    last = CACHE.last_context
    if last[0] is rules and last[1] == wild_rank:
        known: Context[SuitTable] = last[2]
        return known
    key = (wild_rank, rules.aces_high, rules.face_cards_by_rank)
    found: Context[SuitTable] | None = CACHE.contexts.get(key)
    if found is None:
        table = suit_table(rules)
        found = CACHE.contexts.keep(key, Context(wild_rank, table, rules.aces_high))
    CACHE.last_context = (rules, wild_rank, found)
    return found


def fast_arrange(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> Arrangement | None:
    """`arrange` on the fast path; None when it does not apply (a card held four times or more,
    or more wilds than a padded row holds): the general search takes those."""
    last = CACHE.last_context  # `context` without a call when the rules repeat (the hot path)
    ctx = last[2] if last[0] is rules and last[1] == wild_rank else context(wild_rank, rules)
    enc = ctx.enc
    codes = [enc[c.suit][c.rank] for c in hand]
    code = sum(codes)
    if not code & DOUBLED_OR_WILD and (code & ALL_SUITS).bit_count() == len(hand):
        # no wilds, no card twice: no meld at all without three consecutive cards of a suit
        # (Q-K-A too with aces high) or a rank held three times
        counts = code >> RANKS_SHIFT
        if (
            not code & code >> FIELD & code >> 2 * FIELD & RUN_STARTS
            and not (counts & counts >> 1 | counts >> 2) & RANKS_LOW
            and not (ctx.aces_high and code & code >> 11 * FIELD & code >> 12 * FIELD & ACES)
        ):
            return make_arrangement([], list(hand), code >> PEN_SHIFT & PEN_MASK)
        return _plain_arrangement(hand, code, ctx)
    if code & WILD_FIELD:
        return _wild_arrange(hand, wild_rank, rules, codes, code, ctx)
    return _doubled_arrange(hand, wild_rank, rules, code, ctx)


def fast_hand(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> FastHand | None:
    """The hand as suit vectors of naturals plus its wilds; None if it holds a card more than
    three times (more than 3 decks), which the general search handles."""
    ctx = context(wild_rank, rules)
    enc = ctx.enc
    return _from_code(hand, wild_rank, rules, sum([enc[c.suit][c.rank] for c in hand]), ctx)


def _suit_entries(
    code: int, table: SuitTable, size: int
) -> tuple[list[int], tuple[Entry, ...], int] | None:
    """(the four suits, their table entries, the number of wilds) of a hand of `size` cards
    from its code; None if a card is held more than three times (a count overflowed)."""
    if code & SUIT_OVERFLOW:
        return None
    get, compute = table.entries.get, table.compute
    suits = suits_of(code)
    entries = tuple([get(m) or compute(m) for m in suits])
    wilds = code >> WILD_SHIFT & WILD_MASK
    e0, e1, e2, e3 = entries
    if e0[COUNT] + e1[COUNT] + e2[COUNT] + e3[COUNT] + wilds != size:
        return None
    return suits, entries, wilds


def _from_code(
    hand: Sequence[Card], wild_rank: int | None, rules: Rules, code: int, ctx: Context[SuitTable]
) -> FastHand | None:
    """The hand as a `FastHand`, from its code; None if a card is held more than three times
    (the general search handles that)."""
    table = ctx.table
    split = _suit_entries(code, table, len(hand))
    if split is None:
        return None
    suits, entries, wilds = split
    total = sum([e[TOTAL] for e in entries])
    wild_cards = wilds_of(hand, wild_rank) if wilds else []
    return FastHand(hand, wild_rank, rules, table, suits, wild_cards, entries, total)


def _plain_arrangement(hand: Sequence[Card], code: int, ctx: Context[SuitTable]) -> Arrangement:
    """A hand without wilds that holds no card twice (the common one-deck case) and might meld.
    Its sets are ranks held in three or four suits; each suit's runs come from the suit table."""
    masks = suits_of(code)
    a, b, c, d = masks
    trip = (a & b & (c | d)) | ((a | b) & c & d)  # ranks held in three or four suits
    table = ctx.table
    get, compute = table.entries.get, table.compute
    sets = []  # (the rank's bit, the suit numbers of its cards)
    undecided = []  # per rank, the sets to try: None (no set) or (bit, suit numbers)
    if trip:
        # a card with no neighbour in its suit can only be in its rank's set: a set of such
        # cards alone is always made (all of them); others are tried both ways
        alone = [lone(m, ctx.aces_high) for m in masks]
        while trip:
            low = trip & -trip
            trip ^= low
            suits = [s for s in range(4) if masks[s] & low]
            if all(alone[s] & low for s in suits):
                sets.append((low, suits))
                for s in suits:
                    masks[s] -= low
                continue
            options = [(low, suits)]
            if len(suits) == 4:
                options += [(low, suits[:i] + suits[i + 1 :]) for i in range(4)]
            undecided.append([None, *options])
    entries = [get(m) or compute(m) for m in masks]
    value = entries[0][ROW][0] + entries[1][ROW][0] + entries[2][ROW][0] + entries[3][ROW][0]
    if undecided and value:
        chosen: tuple[Any, ...] = ()
        for combo in product(*undecided):
            left = list(masks)
            for option in combo:
                if option is not None:
                    low, suits = option
                    for s in suits:
                        left[s] -= low
            v = 0
            for m in left:
                v += (get(m) or compute(m))[ROW][0]
            if v < value:
                value = v
                chosen = combo
                if not v:
                    break
        for option in chosen:
            if option is not None:
                sets.append(option)
                low, suits = option
                for s in suits:
                    masks[s] -= low
        entries = [get(m) or compute(m) for m in masks]
    suit_enc = ctx.suit_enc
    by_code = {ctx.enc[card.suit][card.rank]: card for card in hand}
    melds = []
    for low, suits in sets:
        rank = low.bit_length() // FIELD + 1
        melds.append([by_code.pop(suit_enc[s][rank]) for s in suits])
    for s in range(4):
        entry = entries[s]
        if entry[ROW][0] < entry[TOTAL]:  # this suit melds something
            codes = suit_enc[s]
            for ranks in table.plan0(masks[s]):
                melds.append([by_code.pop(codes[r]) for r in ranks])
    return make_arrangement(melds, list(by_code.values()), value)


def _doubled_arrange(
    hand: Sequence[Card], wild_rank: int | None, rules: Rules, code: int, ctx: Context[SuitTable]
) -> Arrangement | None:
    """A hand without wilds that holds a card twice; None when a card is held four times or
    more."""
    fast = _from_code(hand, wild_rank, rules, code, ctx)
    if fast is None:
        return None
    e0, e1, e2, e3 = fast.entries
    # a set across suits without wilds needs a rank held three times
    p0, p1, p2, p3 = e0[HELD], e1[HELD], e2[HELD], e3[HELD]
    shared = (p0 & (p1 | p2 | p3)) | (p1 & (p2 | p3)) | (p2 & p3)
    if not shared or not shared & (
        (e0[DOUBLED] | e1[DOUBLED] | e2[DOUBLED] | e3[DOUBLED])
        | (p0 & p1 & (p2 | p3))
        | ((p0 | p1) & p2 & p3)
    ):
        value = e0[ROW][0] + e1[ROW][0] + e2[ROW][0] + e3[ROW][0]
        if value == fast.nat_total:
            return make_arrangement([], list(hand), value)
        return _no_wild_arrangement(hand, fast.table, fast.suits, (), value)
    return fast.arrangement()


def _wild_arrange(
    hand: Sequence[Card],
    wild_rank: int | None,
    rules: Rules,
    codes: list[int],
    code: int,
    ctx: Context[SuitTable],
) -> Arrangement | None:
    """A hand holding wilds (`codes`: each card's code, `code` their sum); None when a card is
    held more than three times or the hand holds more wilds than a padded row."""
    table = ctx.table
    split = _suit_entries(code, table, len(hand))
    if split is None:
        return None
    suits, entries, wilds = split
    if wilds >= PAD:  # more wilds than a padded row holds: the general search
        return None
    value, plan = fast_best(table, suits, wilds, entries)
    if value >= code >> PEN_SHIFT & PEN_MASK:
        fast = _from_code(hand, wild_rank, rules, code, ctx)
        assert fast is not None, "split above: no card is held more than three times"
        return fast.no_meld()
    sets, left, budget, entries = plan
    specs: list[MeldSpec] = [("set", (rank,) * len(cs), cs, need) for need, rank, cs, _ in sets]
    shares = split_budget([e[PADDED] for e in entries], budget, value)
    for s in range(4):
        m = left[s]
        if m:
            found = table.specs.get(m << 5 | shares[s]) or table.suit_specs(m, shares[s])
            specs += found[s]
    extras = _wild_extras(specs, wilds)
    wild_cards = [c for k, c in zip(codes, hand, strict=True) if k == WILD_ONE]
    pool = dict(zip(codes, hand, strict=True))
    take: Callable[[int], Card]
    lists: dict[int, list[Card]] | None
    if len(pool) + wilds - 1 == len(hand):  # no natural held twice: one card per code
        del pool[WILD_ONE]
        take = pool.pop
        lists = None
    else:
        lists = {}
        for k, c in zip(codes, hand, strict=True):
            if k != WILD_ONE:
                found = lists.get(k)
                if found is None:
                    lists[k] = [c]
                else:
                    found.append(c)
        take = _popper(lists)
    aces_high = rules.aces_high
    layouts = CACHE.run_layouts
    out = []
    for (kind, ranks, keys, need), extra in zip(specs, extras, strict=True):
        meld = [take(k) for k in keys]
        count = need + extra
        if count:
            meld += wild_cards[-count:]
            del wild_cards[-count:]
            if kind == "run":
                layout = layouts.get((ranks, count, aces_high)) or _run_layout(
                    ranks, count, aces_high
                )
                meld = [meld[i] for i in layout]
        out.append(meld)
    if lists is None:
        return make_arrangement(out, list(pool.values()), value)
    return make_arrangement(out, [c for cards in lists.values() for c in cards], value)


def _popper(lists: dict[int, list[Card]]) -> Callable[[int], Card]:
    """`take(code)`: a card of that code, out of `lists`."""

    def take(key: int) -> Card:
        return lists[key].pop()

    return take


def _run_layout(ranks: tuple[int, ...], wilds: int, aces_high: bool) -> tuple[int, ...]:
    """Where `lay_out_run` puts each card of a run of naturals of `ranks` (0, 1, ...) and
    `wilds` wilds (after them): remembered per run shape (a few thousand at most)."""
    k = len(ranks)
    layout = tuple(lay_out_run(list(range(k)), ranks, list(range(k, k + wilds)), aces_high))
    return CACHE.run_layouts.keep((ranks, wilds, aces_high), layout)


def _wild_extras(specs: list[MeldSpec], wilds: int) -> list[int]:
    """Wilds beyond its need for each meld, so that every wild is melded: all into a set, or
    spread over runs; if the runs are full, a run's last natural becomes a set of its own (a
    wild takes its place), which leaves no more deadwood."""
    extra = wilds - sum([need for _, _, _, need in specs])
    extras = [0] * len(specs)
    if not extra:
        return extras
    for i, (kind, _, _, _) in enumerate(specs):
        if kind == "set":
            extras[i] = extra
            return extras
    room = [MAX_RUN - len(codes) - need for _, _, codes, need in specs]
    if sum(room) < extra:
        kind, ranks, codes, need = specs[0]
        specs[0] = (kind, ranks[:-1], codes[:-1], need + 1)
        specs.append(("set", ranks[-1:], codes[-1:], 2))
        extras.append(extra - 3)
        return extras
    for i, space in enumerate(room):
        extras[i] = min(space, extra)
        extra -= extras[i]
    return extras


def _no_wild_arrangement(
    hand: Sequence[Card], table: SuitTable, suits: list[int], sets: Sequence[CrossSet], value: int
) -> Arrangement:
    """A hand without wilds: the cross-suit `sets` chosen plus each suit's own best melds (of
    what `suits` leaves), cards in hand order. Cards are matched by key (see `encoding`)."""
    wanted: dict[int, list[tuple[int, int]]] = {}
    melds: list[list[Any]] = []  # each a list of Cards once its slots are filled below
    plans = []
    for cross_set in sets:
        rank, copies = cross_set.rank, cross_set.copies
        plans.append([s << 4 | rank for s in range(4) for _ in range(copies[s])])
    for s in range(4):
        entry = table.entry(suits[s])
        if entry[ROW][0] < entry[TOTAL]:  # this suit melds something
            plans.extend([s << 4 | r for r in ranks] for ranks in table.plan0(suits[s]))
    for i, keys in enumerate(plans):
        melds.append([None] * len(keys))
        for pos, key in enumerate(keys):
            slots = wanted.get(key)
            if slots is None:
                wanted[key] = [(i, pos)]
            else:
                slots.append((i, pos))
    deadwood = []
    suit_of = SUIT_OF
    for c in hand:
        slots = wanted.get(suit_of[c.suit] << 4 | c.rank)
        if slots:
            i, pos = slots.pop()
            melds[i][pos] = c
        else:
            deadwood.append(c)
    return make_arrangement(melds, deadwood, value)


def fast_best(
    table: SuitTable, suits: list[int], budget: int, entries: tuple[Entry, ...]
) -> tuple[int, tuple[Any, ...]]:
    """(least natural deadwood, plan), from the suits' table `entries`: the best without
    cross-suit sets, then every choice of cross-suit sets that might beat it. The plan is a
    plain tuple (the `CrossSet`s chosen, the suits they leave, the wilds left for those suits,
    those suits' entries).
    Two bounds skip choices: a choice taking naturals of penalty p and needing n wilds cannot
    beat (best without cross-suit sets with n fewer wilds) - p, since removing cards lowers
    deadwood by at most what they cost; nor can it beat the sum of what each suit left would
    leave with every wild to itself."""
    whole = joined(suits)
    e0, e1, e2, e3 = entries
    p0, p1, p2, p3 = e0[PADDED], e1[PADDED], e2[PADDED], e3[PADDED]
    best_value = least(p0, p1, p2, p3, budget)
    best: tuple[Any, ...] = ((), suits, budget, entries)
    keys = cross_keys(suits, budget) if best_value else None
    if not keys:
        return best_value, best
    get, compute = table.entries.get, table.compute
    alone = [-1] * budget + [best_value]  # the best without cross-suit sets, by wilds
    for need, taken, gain, sets in cross_choices(table, keys):
        if need > budget or not sets:
            continue
        b = budget - need
        bound = alone[b]
        if bound < 0:
            bound = alone[b] = least(p0, p1, p2, p3, b)
        if bound - gain >= best_value:
            continue
        rest = whole - taken
        n0, n1 = rest & SUIT_MASK, rest >> SUIT_BITS & SUIT_MASK
        n2, n3 = rest >> 2 * SUIT_BITS & SUIT_MASK, rest >> 3 * SUIT_BITS
        e0, e1 = get(n0) or compute(n0), get(n1) or compute(n1)
        e2, e3 = get(n2) or compute(n2), get(n3) or compute(n3)
        r0, r1, r2, r3 = e0[PADDED], e1[PADDED], e2[PADDED], e3[PADDED]
        # no suit does better than with every wild to itself
        if r0[b] + r1[b] + r2[b] + r3[b] >= best_value:
            continue
        value = SUMS[b](r0, r1, r2, r3) if b < 5 else least(r0, r1, r2, r3, b)
        if value < best_value:
            best_value = value
            best = (sets, [n0, n1, n2, n3], b, (e0, e1, e2, e3))
            if not value:
                break
    return best_value, best


class FastHand:
    """A hand split for the fast path: suit vectors of naturals and the wilds."""

    __slots__ = ("entries", "hand", "nat_total", "rules", "suits", "table", "wild_rank", "wilds")

    def __init__(
        self,
        hand: Sequence[Card],
        wild_rank: int | None,
        rules: Rules,
        table: SuitTable,
        suits: list[int],
        wilds: list[Card],
        entries: tuple[Entry, ...],
        total: int,
    ) -> None:
        self.hand, self.wild_rank, self.rules, self.table = hand, wild_rank, rules, table
        self.suits, self.wilds, self.entries, self.nat_total = suits, wilds, entries, total

    def no_meld_cost(self, wilds: int, wild_cost: int) -> int:
        """What the wilds cost when the naturals form no meld at all."""
        return 0 if self.rules.all_wild_melds and wilds >= 3 else wild_cost

    def arrangement(self) -> Arrangement:
        """The arrangement of a hand without wilds (one with wilds goes to `_wild_arrange`)."""
        value, plan = fast_best(self.table, self.suits, 0, self.entries)
        if value >= self.nat_total:
            return self.no_meld()
        sets, left, _, _ = plan
        return _no_wild_arrangement(self.hand, self.table, left, sets, value)

    def no_meld(self) -> Arrangement:
        rules, wild_rank = self.rules, self.wild_rank
        wilds = self.wilds
        deadwood = naturals_of(self.hand, wild_rank)
        if rules.all_wild_melds and len(wilds) >= 3:  # the wilds alone make a meld
            return Arrangement([list(wilds)], deadwood, self.nat_total)
        wild_cost = sum(rules.penalty(c, wild_rank) for c in wilds)
        return Arrangement([], deadwood + list(wilds), self.nat_total + wild_cost)

    def discard_options(self) -> dict[Card, int]:
        """Every discard at once: the cross-suit choices are enumerated once; for each, the
        other three suits' combined row is built once per suit and reused for every card of
        that suit, and the four suits' row serves every wild. Cards are matched by key (see
        `encoding`)."""
        rules, wild_rank = self.rules, self.wild_rank
        budget = len(self.wilds)
        table = self.table
        get, compute = table.entries.get, table.compute
        held = [[r for r in range(1, 14) if m >> FIELD * (r - 1) & 3] for m in self.suits]
        pens = table.pens
        best: dict[int, int] = {}
        best_wild = BIG
        worst = BIG  # the largest best value so far: a choice that cannot beat it is skipped
        whole = joined(self.suits)
        for need, taken, _, _ in cross_choices(table, cross_keys(self.suits, budget)):
            if need > budget:
                continue
            left = suits_of(whole - taken)
            b = budget - need
            rows = [(get(m) or compute(m))[ROW] for m in left]
            # removing a card of rank r lowers a suit's row by at most its penalty
            bound = sum([row[b] for row in rows if b < len(row)])
            if bound - 15 >= worst and bound >= best_wild:
                continue
            if b:
                r0, r1, r2, r3 = rows
                p01, p23 = conv(r0, r1, b), conv(r2, r3, b)
                others: tuple[tuple[int, ...], ...] = (conv(r1, p23, b), conv(r0, p23, b))
                others += (conv(p01, r3, b), conv(p01, r2, b))
                best_wild = min(best_wild, point(p01, p23, b - 1))
            else:
                everything = sum(row[0] for row in rows)
            for s in range(4):
                m = left[s]
                for r in held[s]:
                    key = s << 4 | r
                    if not m >> FIELD * (r - 1) & 3 or bound - pens[r] >= best.get(key, BIG):
                        continue  # every copy went into the cross-suit set, or no gain possible
                    sub = m - UNIT[r]
                    row = (get(sub) or compute(sub))[ROW]
                    value = point(others[s], row, b) if b else everything - rows[s][0] + row[0]
                    if value < best.get(key, BIG):
                        best[key] = value
            worst = max(best.values(), default=BIG)
        wild_cost = sum(rules.penalty(c, wild_rank) for c in self.wilds)
        result: dict[Card, int] = {}
        for c in self.hand:
            if is_wild(c, wild_rank):
                rest = wild_cost - rules.penalty(c, wild_rank)
                value = best_wild
                total = self.nat_total
                cost = value if value < total else total + self.no_meld_cost(budget - 1, rest)
            else:
                total = self.nat_total - pens[c.rank]
                value = best[SUIT_OF[c.suit] << 4 | c.rank]
                cost = value if value < total else total + self.no_meld_cost(budget, wild_cost)
            result[c] = cost
        return result
