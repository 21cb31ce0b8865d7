"""The meld solver: the least penalty a hand can leave, and an arrangement that leaves it.

Public API: `arrange`, `is_meld`, `discard_options`, `can_go_out`, `Arrangement`.

Method (exact, two paths, both checked against a brute-force search in the tests):

Shared facts
- Wilds (jokers and every card of the wild rank, even in its own place) are interchangeable
  inside melds, so both paths search over the *naturals* only and count wilds. The wilds left
  over are the cheapest ones, and melding a wild never costs anything.
- Dominance keeps candidate melds few without losing optimality: a set of 6+ naturals splits
  into two sets, and a run whose naturals span 6+ ranks splits into two runs (two halves never
  need more wilds than the whole and always have more room). So runs span at most 5 ranks; a
  single natural with two wilds is listed once, as a set (the meld with the most room).
- A run never holds two cards of one rank, so with aces high it may be Q-K-A or A-2-3 but not
  A..K..A: it is at most 13 long either way (RULES.md: "never both ends").

Fast path (no table melds, and no per-meld cap or no more wilds than the cap; at most 3 copies
of a card)
- With no cap, once a hand holds any meld every left-over wild can join one: a set takes any
  number, and a hand of runs only can turn one run's end card into a set of its own (that card
  plus two wilds, a wild taking its place), which leaves no more deadwood. So the least penalty
  is the least natural deadwood whose melds need at most the wilds held; only a hand that can
  make no meld at all pays for its wilds (unless they form an all-wild meld).
- Runs and same-suit sets live inside one suit; sets across suits are the only link between
  suits. A suit is a 26-bit int (2 bits of count per rank). For every suit, a table (kept across
  calls) holds the least deadwood for each number of wilds its melds may need, from a memoized
  search that takes the suit's lowest card and tries deadwood, each copy-set and each run
  starting there. Every suit of one deck (8192) and every suit of two decks of up to five cards
  (about 5000 more) are built on first use, in about a quarter of a second (7 MB); bigger suits
  as they come.
- A hand is first encoded in one int, one table look-up per card summed: the four suit vectors
  side by side, the naturals' penalty, the number of wilds, and how many naturals of each rank.
- A hand without wilds that holds no card twice (one deck) is settled by bit tests when it has
  no three consecutive cards of a suit and no rank three times: no meld, all deadwood. Otherwise
  its sets are ranks held in three or four suits; a set whose cards have no neighbour in their
  suit is always made (they fit nowhere else), the others are tried with and without.
- Other hands enumerate only their cross-suit sets (one set per rank suffices without a cap;
  with no wilds only ranks held three times qualify), and for each choice combine the four suit
  rows by (min, +) over the wilds, after two cheap lower bounds have had their chance to skip
  it. Suit rows are kept padded with zeros, and the (min, +) of four rows is written out for up
  to four wilds (the common case): a few dozen additions, no loops and nothing remembered per
  pair of rows (fresh hands missed such a memory a third of the time, and a miss cost more than
  the sum itself).
- Melds are assembled last: each suit's melds for its share of the wilds are remembered per
  suit mask and share, as card codes; the hand's cards are found by their codes.
- `discard_options` enumerates the cross-suit choices once; for each, the other three suits'
  combined row is built once per suit and reused for every card of that suit.

General search (any per-meld cap, redemption lay-offs, any number of decks)
- Naturals are packed into a multiset bitmask (a counter with a guard bit per card face). The
  search takes the lowest natural left and tries deadwood, every candidate meld it forms with
  higher naturals (plus the fewest wilds that make it legal), and every lay-off onto a table
  meld (alone or with other hand cards; a table set of one rank takes any natural of it at no
  cost, separately). Results are memoized on (naturals left, wilds left, spare wild room, table
  melds already extended).
- Every meld records the fewest wilds it needs and how many more it could take ("slack": the
  13-card run limit, the per-meld cap, the table meld's own wilds). Wilds left at the end fill
  slack (and, when allowed, all-wild melds); the rest, the cheapest, are deadwood. Slack is
  tracked capped at the wilds left, which is exact because along a search path slack only grows
  and wilds only shrink.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise, product

from .cards import JOKER_SUIT, SUITS, Card
from .rules import Rules

MAX_RUN = 13
MAX_SET_NATURALS = 5
MAX_RUN_SPAN = 5
UNLIMITED = 1 << 20


@dataclass(frozen=True)
class Arrangement:
    melds: list[list[Card]]
    deadwood: list[Card]
    penalty: int
    layoffs: list[tuple[int, list[Card]]] = field(default_factory=list)


_new = object.__new__


def _arrangement(melds, deadwood, penalty, layoffs=None) -> Arrangement:
    """Arrangement(...) without the frozen dataclass's per-field __setattr__ (a hot path)."""
    result = object.__new__(Arrangement)
    fields = result.__dict__
    fields["melds"] = melds
    fields["deadwood"] = deadwood
    fields["penalty"] = penalty
    fields["layoffs"] = [] if layoffs is None else layoffs
    return result


# -- meld legality -------------------------------------------------------------------------------


def _run_span(ranks: set[int] | frozenset[int], aces_high: bool) -> int:
    """The fewest consecutive ranks that hold `ranks` (distinct, ace = 1), ace low or high."""
    lo, hi = min(ranks), max(ranks)
    span = hi - lo + 1
    if aces_high and lo == 1 and len(ranks) > 1:
        second = min(r for r in ranks if r != 1)
        span = min(span, 15 - second)
    return span


def is_meld(cards: Sequence[Card], wild_rank: int | None, rules: Rules) -> bool:
    n = len(cards)
    if n < 3:
        return False
    naturals = [c for c in cards if not rules.is_wild(c, wild_rank)]
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
    return n <= MAX_RUN and _run_span(ranks, rules.aces_high) <= n


def _order_run(naturals: list[Card], wilds: list[Card], aces_high: bool) -> list[Card]:
    """Lay a run out in rank order: wilds in the gaps, then above (or else below) the naturals."""
    ranks = {c.rank for c in naturals}
    high = aces_high and 1 in ranks and _run_span(ranks, True) < max(ranks) - min(ranks) + 1

    def pos(card: Card) -> int:
        return 14 if high and card.rank == 1 else card.rank

    placed = sorted(naturals, key=pos)
    spare = list(wilds)
    out = [placed[0]]
    for prev, card in pairwise(placed):
        out.extend(spare.pop() for _ in range(pos(card) - pos(prev) - 1))
        out.append(card)
    top = 14 if high or (aces_high and 1 not in ranks) else 13
    above = min(len(spare), top - pos(placed[-1]))
    below = len(spare) - above
    return [spare.pop() for _ in range(below)] + out + [spare.pop() for _ in range(above)]


# -- the search ----------------------------------------------------------------------------------


class _Table:
    """What the shown melds of other players can take (redemption)."""

    def __init__(self, meld: Sequence[Card], wild_rank: int | None, rules: Rules):
        if not is_meld(meld, wild_rank, rules):
            raise ValueError(f"not a meld on the table: {' '.join(map(str, meld))}")
        cap = rules.max_wilds_per_meld
        self.naturals = [c for c in meld if not rules.is_wild(c, wild_rank)]
        self.size = len(meld)
        self.wilds = self.size - len(self.naturals)
        self.wild_room = UNLIMITED if cap is None else cap - self.wilds
        ranks = {c.rank for c in self.naturals}
        self.set_rank = next(iter(ranks)) if len(ranks) == 1 else None
        self.is_pure_set = len(ranks) == 1 and len(self.naturals) >= 2
        suits = {c.suit for c in self.naturals}
        self.can_run = len(ranks) == len(self.naturals) and len(suits) <= 1
        self.run_ranks = frozenset(ranks) if self.can_run else frozenset()
        self.run_suit = self.naturals[0].suit if self.naturals and self.can_run else None
        if self.set_rank is not None or not self.naturals:
            self.slack0 = self.wild_room  # a set (or all-wild meld) takes any number of wilds
        else:
            self.slack0 = min(MAX_RUN - self.size, self.wild_room)


_GUARDS: dict[int, int] = {}
_CANDIDATES: dict[tuple, list[tuple]] = {}


class _Solver:
    """The general search: any per-meld cap, lay-offs onto table melds, any number of decks."""

    def __init__(
        self,
        hand: Sequence[Card],
        wild_rank: int | None,
        rules: Rules,
        table_melds: Sequence[Sequence[Card]] = (),
    ):
        self.rules = rules
        self.wild_rank = wild_rank
        self.cap = rules.max_wilds_per_meld
        naturals = [c for c in hand if not rules.is_wild(c, wild_rank)]
        self.wild_cards = sorted(
            (c for c in hand if rules.is_wild(c, wild_rank)),
            key=lambda c: (rules.penalty(c, wild_rank), c),
        )
        self.cards_of: dict[int, list[Card]] = {}
        for c in sorted(naturals):
            self.cards_of.setdefault(_type_index(c), []).append(c)
        counts = {t: len(cs) for t, cs in self.cards_of.items()}
        bits = max(2, max(counts.values(), default=1).bit_length())
        self.fw = fw = bits + 1
        self.guard = _GUARDS.get(fw) or _GUARDS.setdefault(
            fw, sum(1 << (t * fw + bits) for t in range(52))
        )
        self.root = sum(n << (t * fw) for t, n in counts.items())
        self.pen = [0] * 52
        for t, cs in self.cards_of.items():
            self.pen[t] = rules.penalty(cs[0], wild_rank)
        self.tables = [_Table(m, wild_rank, rules) for m in table_melds]
        # Pure sets on the table take any natural of their rank, whatever else happens.
        self.free_table: dict[int, int] = {}
        base_slack = 0
        for i, tb in enumerate(self.tables):
            if tb.is_pure_set:
                base_slack += tb.slack0
                for suit in range(4):
                    self.free_table.setdefault(suit * 13 + tb.set_rank - 1, i)
        for t in self.free_table:
            self.pen[t] = 0
        self.general = [i for i, tb in enumerate(self.tables) if not tb.is_pure_set]
        self.base_slack = base_slack
        self.cands: dict[int, list[tuple]] = {t: [] for t in counts}
        self._own_candidates(counts)
        self._table_candidates(counts)
        self.set_wilds(self.wild_cards)

    def set_wilds(self, wild_cards: list[Card]) -> None:
        """Choose the wilds the hand holds (sorted cheapest first); resets the memo."""
        self.wilds = wild_cards
        self.leftover_cost = [0]
        for c in wild_cards:
            cost = self.rules.penalty(c, self.wild_rank)
            self.leftover_cost.append(self.leftover_cost[-1] + cost)
        self.memo: dict = {}

    # -- candidate melds, grouped by their lowest natural ---------------------------------------
    def _delta(self, picks: dict[int, int]) -> int:
        return sum(n << (t * self.fw) for t, n in picks.items())

    def _meld_room(self, need: int, length_room: int) -> int | None:
        """Slack of a meld needing `need` wilds, or None if the per-meld cap forbids it."""
        if self.cap is None:
            return length_room
        if need > self.cap:
            return None
        return min(length_room, self.cap - need)

    def _own_candidates(self, counts: dict[int, int]) -> None:
        """Candidate melds by lowest natural, remembered across hands by what surrounds it."""
        get = counts.get
        aces_high = self.rules.aces_high
        for t in counts:
            suit, rank = divmod(t, 13)  # rank from 0 here
            same = tuple([get(s * 13 + rank, 0) for s in range(suit + 1, 4)])
            window = tuple([d for d in range(1, MAX_RUN_SPAN) if rank + d < 13 and t + d in counts])
            high = (
                tuple([r for r in range(9, 13) if suit * 13 + r in counts])
                if rank == 0 and aces_high
                else ()
            )
            key = (t, counts[t], same, window, high, aces_high, self.cap, self.fw)
            cands = _CANDIDATES.get(key)
            if cands is None:
                if len(_CANDIDATES) > 20_000:
                    _CANDIDATES.clear()
                cands = _CANDIDATES[key] = self._own_candidates_of(t, counts)
            self.cands[t] = list(cands)

    def _own_candidates_of(self, t: int, counts: dict[int, int]) -> list[tuple]:
        out = []
        suit, rank = divmod(t, 13)
        rank += 1
        # sets: t and same-rank naturals of later suits
        same = [s * 13 + rank - 1 for s in range(suit + 1, 4) if s * 13 + rank - 1 in counts]
        for extra in product(*(range(counts[u] + 1) for u in same)):
            for own in range(1, counts[t] + 1):
                n = own + sum(extra)
                if n > MAX_SET_NATURALS:
                    continue
                need = max(0, 3 - n)
                slack = self._meld_room(need, UNLIMITED)
                if slack is None:
                    continue
                picks = {t: own} | {u: k for u, k in zip(same, extra, strict=True) if k}
                out.append((self._delta(picks), need, slack, -1, 0, picks, "set"))
        # runs: t as lowest natural, distinct higher ranks of its suit within span 5
        windows = [[r for r in range(rank + 1, rank + MAX_RUN_SPAN) if r <= 13]]
        if rank == 1 and self.rules.aces_high:
            windows.append(list(range(10, 14)))
        for others in windows:
            present = [r for r in others if suit * 13 + r - 1 in counts]
            for k in range(1, len(present) + 1):
                for combo in combinations(present, k):
                    ranks = {rank, *combo}
                    span = _run_span(ranks, self.rules.aces_high)
                    if span > MAX_RUN_SPAN:
                        continue
                    need = max(3, span) - len(ranks)
                    slack = self._meld_room(need, MAX_RUN - max(3, span))
                    if slack is None:
                        continue
                    picks = {suit * 13 + r - 1: 1 for r in ranks}
                    out.append((self._delta(picks), need, slack, -1, 0, picks, "run"))
        return out

    def _table_candidates(self, counts: dict[int, int]) -> None:
        for i in self.general:
            tb = self.tables[i]
            bit = 1 << i
            options: list[tuple[dict[int, int], int, int]] = []
            set_ranks = [tb.set_rank] if tb.set_rank is not None else []
            if not tb.naturals:
                set_ranks = list(range(1, 14))
            for rank in set_ranks:
                types = [s * 13 + rank - 1 for s in range(4) if s * 13 + rank - 1 in counts]
                for ks in product(*(range(counts[u] + 1) for u in types)):
                    if sum(ks):
                        picks = {u: k for u, k in zip(types, ks, strict=True) if k}
                        options.append((picks, 0, tb.wild_room))
            if tb.can_run:
                suits = [SUITS.index(tb.run_suit)] if tb.run_suit else range(4)
                for suit in suits:
                    free = [
                        r
                        for r in range(1, 14)
                        if r not in tb.run_ranks and suit * 13 + r - 1 in counts
                    ]
                    for k in range(1, len(free) + 1):
                        for combo in combinations(free, k):
                            if not tb.naturals and len(combo) == 1:
                                continue  # a lone natural onto wilds is the set case above
                            ranks = tb.run_ranks | set(combo)
                            length = tb.size + k
                            need = max(0, _run_span(ranks, self.rules.aces_high) - length)
                            if length + need > MAX_RUN or need > tb.wild_room:
                                continue
                            slack = min(MAX_RUN - length - need, tb.wild_room - need)
                            options.append(({suit * 13 + r - 1: 1 for r in combo}, need, slack))
            for picks, need, slack in options:
                low = min(picks)
                self.cands[low].append((self._delta(picks), need, slack, i, bit, picks, "layoff"))

    # -- the memoized search ---------------------------------------------------------------------
    def solve(self, state: int, w: int, s: int, mask: int) -> int:
        key = (state, w, s, mask)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        if state == 0:
            cost = self.leftover_cost[w - self._absorb(w, s, mask)[0]]
            self.memo[key] = (cost, None)
            return cost
        fw = self.fw
        t = ((state & -state).bit_length() - 1) // fw
        best = self.pen[t] + self.solve(state - (1 << (t * fw)), w, s, mask)
        choice = None
        guarded = state | self.guard
        guard = self.guard
        for cand in self.cands[t]:
            delta, need, slack, _, bit, _, _ = cand
            if need > w or bit & mask or (guarded - delta) & guard != guard:
                continue
            w2 = w - need
            s2 = min(s + slack, w2)
            cost = self.solve(state - delta, w2, s2, mask | bit)
            if cost < best:
                best, choice = cost, cand
                if best == 0:
                    break
        self.memo[key] = (best, choice)
        return best

    def _absorb(self, w: int, s: int, mask: int) -> tuple[int, int]:
        """(wilds placed, of which in all-wild melds) for `w` wilds left over and slack `s`."""
        room = s + sum([self.tables[i].slack0 for i in self.general if not mask >> i & 1])
        best = (min(w, room), 0)
        cap = self.cap
        if self.rules.all_wild_melds and (cap is None or cap >= 3):
            for y in range(3, w + 1):
                groups = -(-y // cap) if cap else 1
                if y >= 3 * groups:
                    placed = y + min(w - y, room)
                    if placed > best[0]:
                        best = (placed, y)
        return best

    def start(self) -> tuple[int, int, int, int]:
        w = len(self.wilds)
        return (self.root, w, min(self.base_slack, w), 0)

    # -- turning the search back into cards -------------------------------------------------------
    def arrangement(self, state: int, w: int, s: int, mask: int) -> Arrangement:
        penalty = self.solve(state, w, s, mask)
        pools = {t: list(cs) for t, cs in self.cards_of.items()}
        # kind, naturals, wilds needed, slack, table index
        melds: list[tuple[str, list[Card], int, int, int]] = []
        lays: dict[int, list[Card]] = {}
        deadwood: list[Card] = []
        fw = self.fw
        while state:
            _, choice = self.memo[(state, w, s, mask)]
            t = ((state & -state).bit_length() - 1) // fw
            if choice is None:
                card = pools[t].pop(0)
                if self.pen[t] == 0 and t in self.free_table:
                    lays.setdefault(self.free_table[t], []).append(card)
                else:
                    deadwood.append(card)
                state -= 1 << (t * fw)
                continue
            delta, need, slack, table, bit, picks, kind = choice
            cards = [pools[u].pop(0) for u, k in sorted(picks.items()) for _ in range(k)]
            if kind == "layoff":
                lays.setdefault(table, []).extend(cards)
            melds.append((kind, cards, need, slack, table))
            state -= delta
            w -= need
            s = min(s + slack, w)
            mask |= bit
        placed, all_wild = self._absorb(w, s, mask)
        wilds = list(self.wilds)  # cheapest first
        leftover = len(wilds) - (sum(m[2] for m in melds) + placed)
        deadwood.extend(wilds[:leftover])
        melded_wilds = wilds[leftover:][::-1]  # the dearest
        own: list[list[Card]] = []
        extra = placed - all_wild
        rooms: list[tuple[int, int]] = []  # (slack, index in melds or -1-table)
        for k, (_, _, _, slack, _) in enumerate(melds):
            rooms.append((slack, k))
        for i in self.general:
            if not mask >> i & 1:
                rooms.append((self.tables[i].slack0, -1 - i))
        for i, tb in enumerate(self.tables):
            if tb.is_pure_set:
                rooms.append((tb.slack0, -1 - i))
        given = {k: 0 for _, k in rooms}
        for slack, k in rooms:
            take = min(slack, extra)
            given[k] += take
            extra -= take
        for k, (kind, cards, need, _, table) in enumerate(melds):
            mine = [melded_wilds.pop() for _ in range(need + given[k])]
            if kind == "layoff":
                lays[table].extend(mine)
            elif kind == "run":
                own.append(_order_run(cards, mine, self.rules.aces_high))
            else:
                own.append(cards + mine)
        for k, n in given.items():
            if k < 0 and n:
                lays.setdefault(-1 - k, []).extend(melded_wilds.pop() for _ in range(n))
        if all_wild:
            cap = self.cap or all_wild
            groups = -(-all_wild // cap)
            for g in range(groups):
                size = all_wild // groups + (1 if g < all_wild % groups else 0)
                own.append([melded_wilds.pop() for _ in range(size)])
        assert not melded_wilds
        layoffs = [(i, lays[i]) for i in sorted(lays) if lays[i]]
        return Arrangement(own, deadwood, penalty, layoffs)


def _type_index(card: Card) -> int:
    return SUITS.index(card.suit) * 13 + card.rank - 1


# -- the public API ------------------------------------------------------------------------------


def _cap_never_binds(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> bool:
    """True if a per-meld wild cap cannot matter: no cap, or no more wilds than it allows (then
    one meld may hold them all, as without a cap)."""
    cap = rules.max_wilds_per_meld
    return cap is None or len([c for c in hand if c.rank == wild_rank or not c.rank]) <= cap


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
        last = _LAST_CONTEXT
        if last[0] is rules and last[1] == wild_rank:
            context = last[2]
        else:
            context = _context(wild_rank, rules)
        enc = context.enc
        codes = [enc[c.suit][c.rank] for c in hand]
        code = sum(codes)
        if not code & DOUBLED_OR_WILD and (code & ALL_SUITS).bit_count() == len(hand):
            # no wilds, no card twice: no meld at all without three consecutive cards of a
            # suit or a rank held three times
            counts = code >> RANKS_SHIFT
            if (
                not code & code >> FIELD & code >> 2 * FIELD & RUN_STARTS
                and not (counts & counts >> 1 | counts >> 2) & RANKS_LOW
                and not (
                    context.aces_high and code & code >> 11 * FIELD & code >> 12 * FIELD & ACES
                )
            ):
                result = _new(Arrangement)
                fields = result.__dict__
                fields["melds"] = []
                fields["deadwood"] = list(hand)
                fields["penalty"] = code >> PEN_SHIFT & PEN_MASK
                fields["layoffs"] = []
                return result
            return _plain_arrangement(hand, code, context)
        if code & WILD_FIELD:
            result = _wild_arrange(hand, wild_rank, rules, codes, code, context)
        else:
            result = _fast_arrange(hand, wild_rank, rules, code, context)
        if result is not None:
            return result
    solver = _Solver(hand, wild_rank, rules, table_melds)
    return solver.arrangement(*solver.start())


def discard_options(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> dict[Card, int]:
    """For each card of a hand just after drawing: the least penalty the other cards leave if it
    is discarded, all computed together. On the fast path the cross-suit choices are enumerated
    once and each suit's partners reused for every card; in the general search one memo serves
    every natural discarded, and discarding a wild changes only which wilds are left, so each
    kind of wild shares one more memo."""
    if _cap_never_binds(hand, wild_rank, rules):
        fast = _split_hand(hand, wild_rank, rules)
        if fast is not None:
            return fast.discard_options()
    solver = _Solver(hand, wild_rank, rules)
    result: dict[Card, int] = {}
    root, w, s, mask = solver.start()
    fw = solver.fw
    for t, cards in solver.cards_of.items():
        value = solver.solve(root - (1 << (t * fw)), w, s, mask)
        for c in cards:
            result[c] = value
    all_wilds = solver.wilds
    by_penalty: dict[int, list[Card]] = {}
    for c in all_wilds:
        by_penalty.setdefault(rules.penalty(c, wild_rank), []).append(c)
    for cards in by_penalty.values():
        gone = all_wilds.index(cards[0])
        solver.set_wilds(all_wilds[:gone] + all_wilds[gone + 1 :])
        value = solver.solve(root, w - 1, min(solver.base_slack, w - 1), mask)
        for c in cards:
            result[c] = value
    return result


def can_go_out(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> list[Card]:
    """The cards whose discard leaves every other card of `hand` in melds."""
    options = discard_options(hand, wild_rank, rules)
    return [c for c in hand if options[c] == 0]


# -- the fast path: no cap on wilds per meld, no table melds --------------------------------------
#
# Without a per-meld cap, wilds left over after every meld got the wilds it needs can always be
# placed once the hand holds any meld: a set takes any number of wilds, and a hand of runs only
# can turn one run's end card into a set (that card plus two wilds) without leaving more deadwood.
# So the least penalty is the least natural deadwood whose melds need at most the wilds held
# (plus the wilds themselves only when no meld can be made at all).
#
# Runs and same-suit sets live inside one suit; sets across suits are the only link between suits.
# Each suit's best (deadwood by wilds allowed) is a table keyed by the suit's natural counts,
# filled lazily and kept across calls; a hand only enumerates its cross-suit sets and combines the
# four suit rows by (min, +) over the wilds.

BIG = 1 << 30
PAD = 17  # suit rows padded with zeros to this length: a hand holds at most 16 wilds
FILL_CARDS = 5  # two-deck suits of up to this many cards are built with the table
FIELD = 2  # bits per rank in a suit vector: up to 3 copies of a card (3 decks)
UNIT = (0, *(1 << FIELD * (r - 1) for r in range(1, 14)))
LOW_BITS = sum(1 << FIELD * q for q in range(13))
OVERFLOW = 1 << FIELD * 13
SUIT_OF = {s: i for i, s in enumerate(SUITS)}
# A hand's code: the four suit vectors side by side (SUIT_BITS apart), a few spare bits that catch
# a count overflowing out of the last suit, the naturals' penalty, the number of wilds, and (only
# meaningful when no card is held twice) how many naturals of each rank.
SUIT_BITS = FIELD * 13
SUIT_MASK = (1 << SUIT_BITS) - 1
ALL_SUITS = (1 << 4 * SUIT_BITS) - 1
PEN_SHIFT = 4 * SUIT_BITS + 6
PEN_MASK = (1 << 16) - 1
WILD_SHIFT = PEN_SHIFT + 16
WILD_ONE = 1 << WILD_SHIFT
WILD_FIELD = PEN_MASK << WILD_SHIFT
RANKS_SHIFT = WILD_SHIFT + 16  # 3 bits per rank: how many naturals of it, in any suit
RANKS_LOW = sum(1 << 3 * q for q in range(13))
SUIT_OVERFLOW = (1 << PEN_SHIFT) - (1 << 4 * SUIT_BITS)
LOW_ALL = sum(LOW_BITS << SUIT_BITS * i for i in range(4))
DOUBLED = LOW_ALL << 1  # a card held twice or three times
DOUBLED_OR_WILD = DOUBLED | WILD_FIELD
RUN_STARTS = sum(1 << FIELD * q + SUIT_BITS * i for q in range(11) for i in range(4))
ACES = sum(1 << SUIT_BITS * i for i in range(4))


class _SuitTable:
    """Best arrangements of one suit's naturals into runs and same-suit sets.

    A suit is an int with FIELD bits of count per rank. `entry(m)` is (values, choices, total,
    count, held, doubled, padded): values[w] is the least deadwood with melds needing at most w
    wilds (past the end: 0); choices[w] is (meld, wilds it needs, the suit left), meld None
    meaning "the lowest card is deadwood", else ("set", rank, copies) or ("run", ranks in run
    order), shared objects to keep entries small; total is the penalty of every card, count the
    number of cards, held and doubled the low bit of each rank's field where the suit holds that
    rank at least once / twice, padded the values followed by zeros (at least PAD long)."""

    def __init__(self, pens: tuple[int, ...], aces_high: bool):
        self.pens = pens
        self.aces_high = aces_high
        self.cache: dict[int, tuple] = {0: _EMPTY_SUIT}
        self.plans: dict[tuple[int, int], tuple] = {}
        self.plans0: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.suit_specs: dict[int, tuple[tuple, ...]] = {}
        # each natural's code in a hand's code (see `_Context`), by suit number and rank
        self.codes = [
            (
                0,
                *(
                    UNIT[r] << SUIT_BITS * i | pens[r] << PEN_SHIFT | 1 << RANKS_SHIFT + 3 * (r - 1)
                    for r in range(1, 14)
                ),
            )
            for i in range(4)
        ]
        # a rank's cross-suit sets by `_hub_keys` key, with what they save (see `hub_row`)
        self.hub_rows: dict[int, list[tuple]] = {}

    def entry(self, m: int) -> tuple:
        hit = self.cache.get(m)
        return hit if hit is not None else self.compute(m)

    def hub_choices(self, keys: list[int]) -> list[tuple]:
        """Every choice of cross-suit sets for the ranks of `_hub_keys` `keys` (one set at most
        per rank; none at all first, and alone if `keys` is empty), as (wilds needed, the cards
        taken as a part of a hand's code (the four suits side by side), the penalty saved, the
        sets). A set is (wilds needed, rank, its naturals' codes, copies per suit). Each rank's
        own list is remembered."""
        rows = self.hub_rows
        choices = None
        for k in keys:
            row = rows.get(k)
            if row is None:
                row = rows[k] = [(0, 0, 0, ())] + [self._hub_choice(o) for o in _hub_options(k)]
            if choices is None:
                choices = row
            else:
                choices = [
                    (a[0] + o[0], a[1] + o[1], a[2] + o[2], a[3] + o[3])
                    for a in choices
                    for o in row
                ]
        return choices or _NO_CHOICE

    def _hub_choice(self, option: tuple) -> tuple:
        need, l0, l1, l2, l3, ks, _, rank, count = option
        taken = l0 | l1 << SUIT_BITS | l2 << 2 * SUIT_BITS | l3 << 3 * SUIT_BITS
        codes = tuple(self.codes[s][rank] for s in range(4) for _ in range(ks[s]))
        return (need, taken, self.pens[rank] * count, ((need, rank, codes, ks),))

    def fill(self) -> None:
        """Every suit of a single deck (8192 of them, and the melds of each without wilds), then
        every suit of two decks of up to FILL_CARDS cards (about 5000 more): a quarter of a
        second in all, after which a fresh hand seldom waits for its suits."""
        for bits in range(1 << 13):
            m = sum(UNIT[q + 1] for q in range(13) if bits >> q & 1)
            entry = self.entry(m)
            if entry[0][0] < entry[2]:
                self.plan(m, 0)
        suits = [0]
        for q in range(13):  # a rank at a time: 0, 1 or 2 copies, FILL_CARDS at most in all
            suits = [
                m + k * UNIT[q + 1] for m in suits for k in range(3) if _count(m) + k <= FILL_CARDS
            ]
        for m in suits:
            self.entry(m)

    def plan0(self, m: int) -> tuple[tuple[int, ...], ...]:
        """The ranks of each meld of the best arrangement of suit `m` without wilds."""
        melds = self.plans0.get(m)
        if melds is None:
            if len(self.plans0) > _SUIT_TABLE_LIMIT:
                self.plans0.clear()
            melds = self.plans0[m] = tuple(ranks for _, ranks, _ in self.plan(m, 0))
        return melds

    def plan(self, m: int, w: int) -> tuple[tuple[str, tuple[int, ...], int], ...]:
        """The melds of the best arrangement of suit `m` with `w` wilds: (kind, ranks, need)."""
        key = (m, w)
        melds = self.plans.get(key)
        if melds is None:
            found = []
            while m:
                choices = self.entry(m)[1]
                meld, need, sub = choices[min(w, len(choices) - 1)]
                if meld is not None:
                    ranks = (meld[1],) * meld[2] if meld[0] == "set" else meld[1]
                    found.append((meld[0], ranks, need))
                w -= need
                m = sub
            if len(self.plans) > _SUIT_TABLE_LIMIT:
                self.plans.clear()
            melds = self.plans[key] = tuple(found)
        return melds

    def specs(self, m: int, w: int) -> tuple[tuple[tuple, ...], ...]:
        """`plan(m, w)` as suit number 0, 1, 2 and 3: for each, (kind, ranks, the cards' codes,
        need) per meld (a card's code is its share of a hand's code, see `_Context`); remembered
        under `m << 5 | w`."""
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
        if len(self.suit_specs) > _SPECS_LIMIT:
            self.suit_specs.clear()
        self.suit_specs[m << 5 | w] = found
        return found

    def _options(self, m: int) -> list[tuple]:
        """Ways to place the lowest card of suit `m`: (wilds needed, deadwood added, the suit
        left, meld), meld None for "deadwood", else ("set", rank, copies) or ("run", ranks)."""
        shift = (m & -m).bit_length() - 1
        base = shift - shift % FIELD
        rank = base // FIELD + 1
        unit = 1 << base
        options = [(0, self.pens[rank], m - unit, None)]
        for k in range(1, min((m >> base) & 3, MAX_SET_NATURALS) + 1):
            meld = ("set", rank, k)
            meld = _MELDS.setdefault(meld, meld)
            options.append((max(0, 3 - k), 0, m - k * unit, meld))
        top = min(rank + MAX_RUN_SPAN - 1, 13)
        windows = [[q for q in range(rank + 1, top + 1) if m >> FIELD * (q - 1) & 3]]
        if rank == 1 and self.aces_high:
            windows.append([q for q in range(15 - MAX_RUN_SPAN, 14) if m >> FIELD * (q - 1) & 3])
        for high, present in enumerate(windows):
            for size in range(1, len(present) + 1):
                for combo in combinations(present, size):
                    span = 15 - combo[0] if high else combo[-1] - rank + 1
                    need = max(3, span) - size - 1
                    sub = m - unit - sum(UNIT[q] for q in combo)
                    ranks = (*combo, 1) if high else (rank, *combo)
                    meld = ("run", ranks)
                    meld = _MELDS.setdefault(meld, meld)
                    options.append((need, 0, sub, meld))
        return options

    def compute(self, m: int) -> tuple:
        counts = [(m >> FIELD * q) & 3 for q in range(13)]
        naturals = sum(counts)
        total = sum(pen * n for pen, n in zip(self.pens[1:], counts, strict=True))
        length = 2 * naturals + 1
        values = [BIG] * length
        choices: list = [None] * length
        for need, add, sub, meld in self._options(m):
            choice = (meld, need, sub)  # one object, shared by every w it wins
            sub_values = self.entry(sub)[0]
            last = len(sub_values) - 1
            for w in range(need, length):
                i = w - need
                v = add + (sub_values[i] if i <= last else 0)
                if v < values[w]:
                    values[w] = v
                    choices[w] = choice
        end = values.index(0) + 1 if 0 in values else length
        held = (m | m >> 1) & LOW_BITS
        # rows repeat across suits: one shared object each keeps the table small
        row = tuple(values[:end])
        row = _ROWS.setdefault(row, row)
        padded = row + (0,) * (PAD - len(row)) if len(row) < PAD else row
        padded = _ROWS.setdefault(padded, padded)
        result = (row, tuple(choices[:end]), total, naturals, held, m >> 1 & LOW_BITS, padded)
        if len(self.cache) > _SUIT_TABLE_LIMIT:
            self.cache.clear()
            self.cache[0] = _EMPTY_SUIT
            _ROWS.clear()  # only shares objects: forgetting it changes no answer
        self.cache[m] = result
        return result


_SUIT_TABLES: dict[tuple[bool, bool], _SuitTable] = {}
_MELDS: dict[tuple, tuple] = {}  # one shared object per meld shape
_EMPTY_SUIT = ((0,), (None,), 0, 0, 0, 0, (0,) * PAD)
_NO_CHOICE = [(0, 0, 0, ())]  # no cross-suit set at all
_ROWS: dict[tuple[int, ...], tuple[int, ...]] = {}  # one object per distinct row
_SUIT_TABLE_LIMIT = 100_000  # entries per table (~0.5 kB each) before it is cleared
_SPECS_LIMIT = 20_000  # melds of a suit laid out for one share of the wilds, as each suit number


def _count(m: int) -> int:
    """How many cards suit `m` holds."""
    return (m & LOW_BITS).bit_count() + 2 * (m >> 1 & LOW_BITS).bit_count()


def _suit_table(rules: Rules) -> _SuitTable:
    key = (rules.aces_high, rules.face_cards_by_rank)
    table = _SUIT_TABLES.get(key)
    if table is None:
        pens = (0, *(rules.face_value(Card(r, "S")) for r in range(1, 14)))
        table = _SUIT_TABLES[key] = _SuitTable(pens, rules.aces_high)
        table.fill()
        for counts in range(256):  # the cross-suit sets of one deck
            if not counts & 0xAA:
                for base in range(0, FIELD * 13, FIELD):
                    _hub_options((counts << 6 | base) << 1)
                    _hub_options((counts << 6 | base) << 1 | 1)
    return table


def _conv(a: tuple[int, ...], b: tuple[int, ...], budget: int) -> tuple[int, ...]:
    """(min, +) of two 'deadwood by wilds allowed' rows, for budgets 0..budget."""
    if len(a) == 1:
        return b[: budget + 1] if not a[0] else tuple([a[0] + x for x in b[: budget + 1]])
    if len(b) == 1:
        return a[: budget + 1] if not b[0] else tuple([b[0] + x for x in a[: budget + 1]])
    # rows never rise and end with 0: b's first value on every entry of a (padded with
    # zeros), then each later value of b shifted along
    n = min(budget, len(a) + len(b) - 2) + 1
    padded = a + (0,) * (n - len(a)) if len(a) < n else a
    b0 = b[0]
    values = [x + b0 for x in padded[:n]]
    for j in range(1, min(len(b), n)):
        bj = b[j]
        for w in range(j, n):
            v = padded[w - j] + bj
            if v < values[w]:
                values[w] = v
    return tuple(values)


def _point(a: tuple[int, ...], c: tuple[int, ...], budget: int) -> int:
    """min over w of a[budget - w] + c[w]: two rows combined at one budget."""
    # rows never rise and end with 0: a past its end, or c past its end, is no better
    low, high = max(0, budget - len(a) + 1), min(budget, len(c) - 1)
    if low > high:
        return 0
    return min([a[budget - w] + c[w] for w in range(low, high + 1)])


_HUB_OPTIONS: dict[int, list[tuple]] = {}


def _hub_options(key: int) -> list[tuple]:
    """The cross-suit sets one rank's naturals can form, for a `_hub_keys` key, as (wilds
    needed, what each suit gives up as four ints, copies per suit, base, rank, naturals); without
    wilds only those needing none. With no cap on wilds two sets of one rank are never better
    than the two merged, so one set per rank (of any size) is enough; a cross-suit set has two
    naturals or more, so it needs one wild at most."""
    options = _HUB_OPTIONS.get(key)
    if options is None:
        with_wilds, base = key & 1, key >> 1 & 63
        counts = [key >> 7 + 2 * s & 3 for s in range(4)]
        options = []
        for ks in product(*(range(n + 1) for n in counts)):
            need = max(0, 3 - sum(ks))
            if sum(1 for k in ks if k) >= 2 and (with_wilds or not need):
                rank = base // FIELD + 1
                options.append((need, *(k << base for k in ks), ks, base, rank, sum(ks)))
        options.sort()
        _HUB_OPTIONS[key] = options
    return options


def _hub_keys(suits: list[int], budget: int) -> list[int]:
    """Per rank held in two or more suits (that could make a set): an int naming its counts per
    suit, its bit position and whether wilds may help (see `_hub_options`)."""
    m0, m1, m2, m3 = suits
    p0 = (m0 | m0 >> 1) & LOW_BITS
    p1 = (m1 | m1 >> 1) & LOW_BITS
    p2 = (m2 | m2 >> 1) & LOW_BITS
    p3 = (m3 | m3 >> 1) & LOW_BITS
    shared = (p0 & (p1 | p2 | p3)) | (p1 & (p2 | p3)) | (p2 & p3)
    if shared and not budget:  # a set without wilds needs three naturals
        doubled = (m0 | m1 | m2 | m3) >> 1 & LOW_BITS  # some suit holds the rank twice
        shared &= doubled | (p0 & p1 & (p2 | p3)) | ((p0 | p1) & p2 & p3)
    keys = []
    with_wilds = 1 if budget else 0
    while shared:
        low = shared & -shared
        shared ^= low
        base = low.bit_length() - 1
        counts = m0 >> base & 3 | (m1 >> base & 3) << 2 | (m2 >> base & 3) << 4
        keys.append(((counts | (m3 >> base & 3) << 6) << 6 | base) << 1 | with_wilds)
    return keys


Row = tuple[int, ...]


def _point_0(a: Row, b: Row, c: Row, d: Row) -> int:
    return a[0] + b[0] + c[0] + d[0]


def _point_1(a: Row, b: Row, c: Row, d: Row) -> int:
    """The least of a[i] + b[j] + c[k] + d[l] with i + j + k + l = 1 (rows padded with zeros)."""
    a0, a1 = a[0], a[1]
    b0, b1 = b[0], b[1]
    c0, c1 = c[0], c[1]
    d0, d1 = d[0], d[1]
    l0 = a0 + b0
    l1 = min(a0 + b1, a1 + b0)
    h0 = c0 + d0
    h1 = min(c0 + d1, c1 + d0)
    return min(l0 + h1, l1 + h0)


def _point_2(a: Row, b: Row, c: Row, d: Row) -> int:
    """The least of a[i] + b[j] + c[k] + d[l] with i + j + k + l = 2 (rows padded with zeros)."""
    a0, a1, a2 = a[0], a[1], a[2]
    b0, b1, b2 = b[0], b[1], b[2]
    c0, c1, c2 = c[0], c[1], c[2]
    d0, d1, d2 = d[0], d[1], d[2]
    l0 = a0 + b0
    l1 = min(a0 + b1, a1 + b0)
    l2 = min(a0 + b2, a1 + b1, a2 + b0)
    h0 = c0 + d0
    h1 = min(c0 + d1, c1 + d0)
    h2 = min(c0 + d2, c1 + d1, c2 + d0)
    return min(l0 + h2, l1 + h1, l2 + h0)


def _point_3(a: Row, b: Row, c: Row, d: Row) -> int:
    """The least of a[i] + b[j] + c[k] + d[l] with i + j + k + l = 3 (rows padded with zeros)."""
    a0, a1, a2, a3 = a[0], a[1], a[2], a[3]
    b0, b1, b2, b3 = b[0], b[1], b[2], b[3]
    c0, c1, c2, c3 = c[0], c[1], c[2], c[3]
    d0, d1, d2, d3 = d[0], d[1], d[2], d[3]
    l0 = a0 + b0
    l1 = min(a0 + b1, a1 + b0)
    l2 = min(a0 + b2, a1 + b1, a2 + b0)
    l3 = min(a0 + b3, a1 + b2, a2 + b1, a3 + b0)
    h0 = c0 + d0
    h1 = min(c0 + d1, c1 + d0)
    h2 = min(c0 + d2, c1 + d1, c2 + d0)
    h3 = min(c0 + d3, c1 + d2, c2 + d1, c3 + d0)
    return min(l0 + h3, l1 + h2, l2 + h1, l3 + h0)


def _point_4(a: Row, b: Row, c: Row, d: Row) -> int:
    """The least of a[i] + b[j] + c[k] + d[l] with i + j + k + l = 4 (rows padded with zeros)."""
    a0, a1, a2, a3, a4 = a[0], a[1], a[2], a[3], a[4]
    b0, b1, b2, b3, b4 = b[0], b[1], b[2], b[3], b[4]
    c0, c1, c2, c3, c4 = c[0], c[1], c[2], c[3], c[4]
    d0, d1, d2, d3, d4 = d[0], d[1], d[2], d[3], d[4]
    l0 = a0 + b0
    l1 = min(a0 + b1, a1 + b0)
    l2 = min(a0 + b2, a1 + b1, a2 + b0)
    l3 = min(a0 + b3, a1 + b2, a2 + b1, a3 + b0)
    l4 = min(a0 + b4, a1 + b3, a2 + b2, a3 + b1, a4 + b0)
    h0 = c0 + d0
    h1 = min(c0 + d1, c1 + d0)
    h2 = min(c0 + d2, c1 + d1, c2 + d0)
    h3 = min(c0 + d3, c1 + d2, c2 + d1, c3 + d0)
    h4 = min(c0 + d4, c1 + d3, c2 + d2, c3 + d1, c4 + d0)
    return min(l0 + h4, l1 + h3, l2 + h2, l3 + h1, l4 + h0)


# The least deadwood of four suits sharing n wilds, written out for the few wilds hands hold most
# often: a (min, +) product of short rows costs a fraction of the loops in `_conv`.
_POINTS = (_point_0, _point_1, _point_2, _point_3, _point_4)


def _least(a: Row, b: Row, c: Row, d: Row, n: int) -> int:
    """The least of a[i] + b[j] + c[k] + d[l] with i + j + k + l = n: the least deadwood of four
    suits sharing n wilds (rows padded with zeros past n)."""
    if n < 5:
        return _POINTS[n](a, b, c, d)
    return _point(_conv(a, b, n), _conv(c, d, n), n)


def _fast_best(table: _SuitTable, suits: list[int], budget: int, entries: tuple):
    """(least natural deadwood, plan), from the suits' table `entries`: the best without
    cross-suit sets, then every choice of cross-suit sets that might beat it. The plan is (sets,
    suits left, wilds left for the suits, the entries of the suits left).
    Two bounds skip choices: a choice taking naturals of penalty p and needing n wilds cannot
    beat (best without cross-suit sets with n fewer wilds) - p, since removing cards lowers
    deadwood by at most what they cost; nor can it beat the sum of what each suit left would
    leave with every wild to itself."""
    whole = _joined(suits)
    e0, e1, e2, e3 = entries  # the suits' table entries
    p0, p1, p2, p3 = e0[6], e1[6], e2[6], e3[6]
    best_value = _least(p0, p1, p2, p3, budget)
    best_plan = ((), suits, budget, entries)
    if not best_value:
        return best_value, best_plan
    keys = _hub_keys(suits, budget)
    if not keys:
        return best_value, best_plan
    choices = table.hub_choices(keys)
    cache, compute = table.cache, table.compute
    alone = [-1] * budget + [best_value]  # the best without cross-suit sets, by wilds
    for need, taken, gain, sets in choices:
        if need > budget or not sets:
            continue
        b = budget - need
        bound = alone[b]
        if bound < 0:
            bound = alone[b] = _least(p0, p1, p2, p3, b)
        if bound - gain >= best_value:
            continue
        rest = whole - taken
        n0, n1 = rest & SUIT_MASK, rest >> SUIT_BITS & SUIT_MASK
        n2, n3 = rest >> 2 * SUIT_BITS & SUIT_MASK, rest >> 3 * SUIT_BITS
        e0, e1 = cache.get(n0) or compute(n0), cache.get(n1) or compute(n1)
        e2, e3 = cache.get(n2) or compute(n2), cache.get(n3) or compute(n3)
        r0, r1, r2, r3 = e0[6], e1[6], e2[6], e3[6]
        # no suit does better than with every wild to itself
        if r0[b] + r1[b] + r2[b] + r3[b] >= best_value:
            continue
        value = _POINTS[b](r0, r1, r2, r3) if b < 5 else _least(r0, r1, r2, r3, b)
        if value < best_value:
            best_value = value
            best_plan = (sets, [n0, n1, n2, n3], b, (e0, e1, e2, e3))
            if not value:
                break
    return best_value, best_plan


def _split_budget(rows: list[Row], budget: int, value: int) -> list[int]:
    """How many wilds each of four suits' melds may need, reaching their least deadwood `value`
    with `budget` wilds (rows padded with zeros)."""
    r0, r1, r2, r3 = rows
    for w0 in range(budget + 1):
        for w1 in range(budget + 1 - w0):
            part = r0[w0] + r1[w1]
            if part > value:
                continue
            rest = budget - w0 - w1
            for w2 in range(rest + 1):
                if part + r2[w2] + r3[rest - w2] == value:
                    return [w0, w1, w2, rest - w2]
    raise AssertionError("no split reaches the least deadwood")


def _lay_run(
    cards: list[Card], ranks: tuple[int, ...], wilds: list[Card], aces_high: bool
) -> list[Card]:
    """A run in rank order: wilds in its gaps, then above the top (up to the ace), then below.
    `ranks` are the naturals' ranks in run order (an ace after a king is high)."""
    out = [cards[0]]
    last = ranks[0]
    for card, rank in zip(cards[1:], ranks[1:], strict=True):
        pos = 14 if rank == 1 else rank
        if pos - last > 1:
            out.extend(wilds[: pos - last - 1])
            del wilds[: pos - last - 1]
        out.append(card)
        last = pos
    top = 14 if aces_high and ranks[0] != 1 else 13
    above = max(0, min(len(wilds), top - last))
    return wilds[above:] + out + wilds[:above]


_RUN_LAYOUTS: tuple[dict, dict] = ({}, {})  # by aces high: (ranks, wilds) -> order


def _run_layout(ranks: tuple[int, ...], take: int, aces_high: bool) -> tuple[int, ...]:
    """Where `_lay_run` puts each card of a run of naturals of `ranks` (0, 1, ...) and `take`
    wilds (after them): remembered per run shape (a few thousand at most)."""
    k = len(ranks)
    layout = tuple(_lay_run(list(range(k)), ranks, list(range(k, k + take)), aces_high))
    _RUN_LAYOUTS[aces_high][ranks, take] = layout
    return layout


class _Context:
    """What the fast path needs for one wild rank and one set of penalty switches: each card's
    code (per suit letter, per rank; see SUIT_BITS) and the suit table."""

    __slots__ = ("aces_high", "enc", "suit_enc", "table")

    def __init__(self, wild_rank: int | None, rules: Rules):
        self.table = _SUIT_TABLES.get((rules.aces_high, rules.face_cards_by_rank)) or _suit_table(
            rules
        )
        self.aces_high = rules.aces_high
        self.enc = {JOKER_SUIT: (WILD_ONE,)}
        for i, suit in enumerate(SUITS):
            codes = self.table.codes[i]
            self.enc[suit] = tuple(WILD_ONE if r == wild_rank else codes[r] for r in range(14))
        self.suit_enc = [self.enc[suit] for suit in SUITS]


_CONTEXTS: dict[tuple, _Context] = {}


_LAST_CONTEXT: tuple = (None, None, None)  # (rules, wild rank, context) of the latest call


def _context(wild_rank: int | None, rules: Rules) -> _Context:
    global _LAST_CONTEXT
    key = (wild_rank, rules.aces_high, rules.face_cards_by_rank)
    context = _CONTEXTS.get(key)
    if context is None:
        if len(_CONTEXTS) > 1000:
            _CONTEXTS.clear()
        context = _CONTEXTS[key] = _Context(wild_rank, rules)
    _LAST_CONTEXT = (rules, wild_rank, context)
    return context


def _from_code(hand: Sequence[Card], wild_rank: int | None, rules: Rules, code: int, context):
    """The hand as a `_FastHand`, from its code; None if a card is held more than three times
    (the general search handles that)."""
    table = context.table
    split = _suit_entries(code, table, len(hand))
    if split is None:
        return None
    suits, entries, wilds = split
    total = sum([e[2] for e in entries])
    wild_cards = [c for c in hand if c.rank == wild_rank or not c.rank] if wilds else []
    return _FastHand(hand, wild_rank, rules, table, suits, wild_cards, entries, total)


def _joined(suits: list[int]) -> int:
    """The four suit vectors side by side, as in a hand's code."""
    return suits[0] | suits[1] << SUIT_BITS | suits[2] << 2 * SUIT_BITS | suits[3] << 3 * SUIT_BITS


def _suits_of(code: int) -> list[int]:
    """The four suit vectors of a hand's code (or of any int holding them side by side)."""
    return [
        code & SUIT_MASK,
        code >> SUIT_BITS & SUIT_MASK,
        code >> 2 * SUIT_BITS & SUIT_MASK,
        code >> 3 * SUIT_BITS & SUIT_MASK,
    ]


def _suit_entries(code: int, table: _SuitTable, size: int):
    """(the four suits, their table entries, the number of wilds) of a hand of `size` cards
    from its code; None if a card is held more than three times (a count overflowed)."""
    if code & SUIT_OVERFLOW:
        return None
    cache, compute = table.cache, table.compute
    suits = _suits_of(code)
    entries = tuple([cache.get(m) or compute(m) for m in suits])
    wilds = code >> WILD_SHIFT & PEN_MASK
    if entries[0][3] + entries[1][3] + entries[2][3] + entries[3][3] + wilds != size:
        return None
    return suits, entries, wilds


def _split_hand(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> _FastHand | None:
    """The hand as suit vectors of naturals plus its wilds; None if it holds a card more than
    three times (more than 3 decks), which the general search handles."""
    context = _CONTEXTS.get((wild_rank, rules.aces_high, rules.face_cards_by_rank)) or _context(
        wild_rank, rules
    )
    enc = context.enc
    return _from_code(hand, wild_rank, rules, sum([enc[c.suit][c.rank] for c in hand]), context)


def _plain_arrangement(hand: Sequence[Card], code: int, context: _Context) -> Arrangement:
    """A hand without wilds that holds no card twice (the common one-deck case) and might meld.
    Its sets are ranks held in three or four suits; each suit's runs come from the suit table."""
    a = code & SUIT_MASK
    b = code >> SUIT_BITS & SUIT_MASK
    c = code >> 2 * SUIT_BITS & SUIT_MASK
    d = code >> 3 * SUIT_BITS & SUIT_MASK
    trip = (a & b & (c | d)) | ((a | b) & c & d)
    table = context.table
    cache = table.cache
    masks = [a, b, c, d]
    sets = []  # (rank's bit, suits)
    hubs = []
    if trip:
        # a card with no neighbour in its suit can only be in its rank's set: a set of such
        # cards alone is always made (all of them); others are tried both ways
        lone = [m & ~(m << FIELD | m >> FIELD) for m in masks]
        if context.aces_high:
            for s, m in enumerate(masks):
                if m & ACES and m >> 12 * FIELD & 1:
                    lone[s] &= ~(1 | 1 << 12 * FIELD)
        while trip:
            low = trip & -trip
            trip ^= low
            held = [s for s in range(4) if masks[s] & low]
            if all(lone[s] & low for s in held):
                sets.append((low, held))
                for s in held:
                    masks[s] -= low
                continue
            options = [(low, held)]
            if len(held) == 4:
                options += [(low, held[:i] + held[i + 1 :]) for i in range(4)]
            hubs.append([None, *options])
    entries = [cache.get(m) or table.compute(m) for m in masks]
    value = entries[0][0][0] + entries[1][0][0] + entries[2][0][0] + entries[3][0][0]
    if hubs and value:
        chosen: tuple = ()
        for combo in product(*hubs):
            left = list(masks)
            for option in combo:
                if option is not None:
                    for s in option[1]:
                        left[s] -= option[0]
            v = 0
            for m in left:
                v += (cache.get(m) or table.compute(m))[0][0]
            if v < value:
                value = v
                chosen = combo
                if not v:
                    break
        for option in chosen:
            if option is not None:
                sets.append(option)
                for s in option[1]:
                    masks[s] -= option[0]
        entries = [cache.get(m) or table.compute(m) for m in masks]
    suit_enc = context.suit_enc
    by_key = {context.enc[card.suit][card.rank]: card for card in hand}
    melds = []
    for low, held in sets:
        rank = low.bit_length() // FIELD + 1
        melds.append([by_key.pop(suit_enc[s][rank]) for s in held])
    for s in range(4):
        entry = entries[s]
        if entry[0][0] < entry[2]:
            codes = suit_enc[s]
            for ranks in table.plan0(masks[s]):
                melds.append([by_key.pop(codes[r]) for r in ranks])
    return _arrangement(melds, list(by_key.values()), value)


def _fast_arrange(
    hand: Sequence[Card], wild_rank: int | None, rules: Rules, code: int, context: _Context
) -> Arrangement | None:
    """`arrange` without a wild cap or table melds, for a hand without wilds that holds a card
    twice; None when the fast path does not apply (a card held four times or more)."""
    fast = _from_code(hand, wild_rank, rules, code, context)
    if fast is None:
        return None
    e0, e1, e2, e3 = fast.entries
    # a set across suits without wilds needs a rank held three times
    p0, p1, p2, p3 = e0[4], e1[4], e2[4], e3[4]
    shared = (p0 & (p1 | p2 | p3)) | (p1 & (p2 | p3)) | (p2 & p3)
    if not shared or not shared & (
        (e0[5] | e1[5] | e2[5] | e3[5]) | (p0 & p1 & (p2 | p3)) | ((p0 | p1) & p2 & p3)
    ):
        value = e0[0][0] + e1[0][0] + e2[0][0] + e3[0][0]
        if value == fast.nat_total:
            return _arrangement([], list(hand), value)
        return _no_wild_arrangement(hand, fast.table, fast.suits, (), value)
    return fast.arrangement()


def _wild_arrange(
    hand: Sequence[Card],
    wild_rank: int | None,
    rules: Rules,
    codes: list[int],
    code: int,
    context: _Context,
) -> Arrangement | None:
    """`arrange` without a wild cap or table melds, for a hand holding wilds (`codes`: each
    card's code, `code` their sum); None when a card is held more than three times."""
    table = context.table
    split = _suit_entries(code, table, len(hand))
    if split is None or split[2] >= PAD:  # more wilds than a padded row holds: general search
        return None
    suits, entries, wilds = split
    value, plan = _fast_best(table, suits, wilds, entries)
    if value >= code >> PEN_SHIFT & PEN_MASK:
        return _from_code(hand, wild_rank, rules, code, context)._no_meld()
    sets, left, budget, entries = plan
    # each meld as (kind, its naturals' ranks, their codes, wilds needed)
    specs: list[tuple] = []
    for need, rank, keys, _ in sets:
        specs.append(("set", (rank,) * len(keys), keys, need))
    shares = _split_budget([e[6] for e in entries], budget, value)
    suit_specs = table.suit_specs
    for s in range(4):
        m = left[s]
        if m:
            found = suit_specs.get(m << 5 | shares[s]) or table.specs(m, shares[s])
            specs += found[s]
    extras = _wild_extras(specs, wilds)
    wild_cards = [c for k, c in zip(codes, hand, strict=True) if k == WILD_ONE]
    pool = dict(zip(codes, hand, strict=True))
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
    layouts = _RUN_LAYOUTS[aces_high]
    out = []
    for (kind, ranks, keys, need), extra in zip(specs, extras, strict=True):
        meld = [take(k) for k in keys]
        count = need + extra
        if count:
            meld += wild_cards[-count:]
            del wild_cards[-count:]
            if kind == "run":
                layout = layouts.get((ranks, count)) or _run_layout(ranks, count, aces_high)
                meld = [meld[i] for i in layout]
        out.append(meld)
    if lists is None:
        return _arrangement(out, list(pool.values()), value)
    return _arrangement(out, [c for cards in lists.values() for c in cards], value)


def _popper(lists: dict[int, list[Card]]):
    """`take(code)`: a card of that code, out of `lists`."""

    def take(key: int) -> Card:
        return lists[key].pop()

    return take


def _wild_extras(specs: list, wilds: int) -> list[int]:
    """Wilds beyond its need for each meld, so that every wild is melded: all into a set, or
    spread over runs; if the runs are full, a run's last natural becomes a set of its own (a
    wild takes its place), which leaves no more deadwood."""
    extra = wilds - sum([spec[3] for spec in specs])
    extras = [0] * len(specs)
    if not extra:
        return extras
    for i, spec in enumerate(specs):
        if spec[0] == "set":
            extras[i] = extra
            return extras
    room = [MAX_RUN - len(keys) - need for _, _, keys, need in specs]
    if sum(room) < extra:
        kind, ranks, keys, need = specs[0]
        specs[0] = (kind, ranks[:-1], keys[:-1], need + 1)
        specs.append(("set", ranks[-1:], keys[-1:], 2))
        extras.append(extra - 3)
        return extras
    for i, space in enumerate(room):
        extras[i] = min(space, extra)
        extra -= extras[i]
    return extras


def _no_wild_arrangement(hand, table, suits, sets, value) -> Arrangement:
    """A hand without wilds: the cross-suit `sets` chosen plus each suit's own best melds (of
    what `suits` leaves), cards in hand order."""
    wanted: dict[int, list[tuple[int, int]]] = {}
    melds: list[list] = []
    plans = []
    for _, rank, _, ks in sets:
        plans.append([s << 4 | rank for s in range(4) for _ in range(ks[s])])
    for s in range(4):
        entry = table.entry(suits[s])
        if entry[0][0] < entry[2]:  # this suit melds something
            plans.extend([s << 4 | r for r in ranks] for _, ranks, _ in table.plan(suits[s], 0))
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
    return _arrangement(melds, deadwood, value)


class _FastHand:
    """A hand split for the fast path: suit vectors of naturals and the wilds."""

    __slots__ = ("entries", "hand", "nat_total", "rules", "suits", "table", "wild_rank", "wilds")

    def __init__(self, hand, wild_rank, rules, table, suits, wilds, entries, total):
        self.hand, self.wild_rank, self.rules, self.table = hand, wild_rank, rules, table
        self.suits, self.wilds, self.entries, self.nat_total = suits, wilds, entries, total

    def no_meld_cost(self, wilds: int, wild_cost: int) -> int:
        """What the wilds cost when the naturals form no meld at all."""
        return 0 if self.rules.all_wild_melds and wilds >= 3 else wild_cost

    def arrangement(self) -> Arrangement:
        """The arrangement of a hand without wilds (one with wilds goes to `_wild_arrange`)."""
        value, plan = _fast_best(self.table, self.suits, 0, self.entries)
        if value >= self.nat_total:
            return self._no_meld()
        return _no_wild_arrangement(self.hand, self.table, plan[1], plan[0], value)

    def _no_meld(self) -> Arrangement:
        rules, wild_rank = self.rules, self.wild_rank
        wilds = self.wilds
        deadwood = [c for c in self.hand if not rules.is_wild(c, wild_rank)]
        wild_cost = sum(rules.penalty(c, wild_rank) for c in wilds)
        if wilds and self.no_meld_cost(len(wilds), wild_cost) == 0:
            return Arrangement([list(wilds)], deadwood, self.nat_total)
        return Arrangement([], deadwood + list(wilds), self.nat_total + wild_cost)

    def discard_options(self) -> dict[Card, int]:
        """Every discard at once: the cross-suit choices are enumerated once; for each, the
        other three suits' combined row is built once per suit and reused for every card of
        that suit, and the four suits' row serves every wild."""
        rules, wild_rank = self.rules, self.wild_rank
        budget = len(self.wilds)
        table = self.table
        cache, compute = table.cache, table.compute
        held = [[r for r in range(1, 14) if m >> FIELD * (r - 1) & 3] for m in self.suits]
        pens = table.pens
        best: dict[int, int] = {}
        best_wild = BIG
        worst = BIG  # the largest best value so far: a choice that cannot beat it is skipped
        whole = _joined(self.suits)
        for need, taken, _, _ in table.hub_choices(_hub_keys(self.suits, budget)):
            if need > budget:
                continue
            left = _suits_of(whole - taken)
            b = budget - need
            entries = [cache.get(m) or compute(m) for m in left]
            rows = [e[0] for e in entries]
            # removing a card of rank r lowers a suit's row by at most its penalty
            bound = sum([row[b] for row in rows if b < len(row)])
            if bound - 15 >= worst and bound >= best_wild:
                continue
            if b:
                r0, r1, r2, r3 = rows
                p01, p23 = _conv(r0, r1, b), _conv(r2, r3, b)
                others = (_conv(r1, p23, b), _conv(r0, p23, b))
                others += (_conv(p01, r3, b), _conv(p01, r2, b))
                best_wild = min(best_wild, _point(p01, p23, b - 1))
            else:
                everything = sum(row[0] for row in rows)
            for s in range(4):
                m = left[s]
                for r in held[s]:
                    key = s << 4 | r
                    if not m >> FIELD * (r - 1) & 3 or bound - pens[r] >= best.get(key, BIG):
                        continue  # every copy went into the cross-suit set, or no gain possible
                    sub = m - UNIT[r]
                    row = (cache.get(sub) or compute(sub))[0]
                    value = _point(others[s], row, b) if b else everything - rows[s][0] + row[0]
                    if value < best.get(key, BIG):
                        best[key] = value
            worst = max(best.values(), default=BIG)
        wild_cost = sum(rules.penalty(c, wild_rank) for c in self.wilds)
        result: dict[Card, int] = {}
        for c in self.hand:
            if c.rank == wild_rank or not c.rank:
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
