"""The general search: any per-meld cap on wilds, lay-offs onto table melds (redemption), any number
of decks. It is the reference the fast path is tested against.

- Naturals are packed into a multiset bitmask (a counter with a guard bit per card face, `fw`
  bits per face). The search takes the lowest natural left and tries deadwood, every candidate
  meld it forms with higher naturals (plus the fewest wilds that make it legal), and every
  lay-off onto a table meld (alone or with other hand cards; a table set of one rank takes any
  natural of it at no cost, separately). Results are memoized on (naturals left, wilds left,
  spare wild room, table melds already extended).
- Every meld records the fewest wilds it needs and how many more it could take ("slack": the
  13-card run limit, the per-meld cap, the table meld's own wilds). Wilds left at the end fill
  slack (and, when allowed, all-wild melds); the rest, the cheapest, are deadwood. Slack is
  tracked capped at the wilds left, which is exact because along a search path slack only grows
  and wilds only shrink."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product
from typing import NamedTuple

from ..cards import SUITS, Card
from ..rules import Rules
from .cache import CACHE
from .legality import (
    MAX_RUN,
    MAX_RUN_SPAN,
    MAX_SET_NATURALS,
    UNLIMITED,
    Arrangement,
    is_meld,
    lay_out_run,
    naturals_of,
    run_order,
    run_span,
    runs_from,
    wilds_of,
)


def face_index(card: Card) -> int:
    """A natural's face as 0..51: suit by suit, ace (0) to king (12)."""
    return SUITS.index(card.suit) * 13 + card.rank - 1


class Candidate(NamedTuple):
    """A meld (or lay-off) the search may make with the lowest natural left."""

    delta: int  # its naturals as a part of the search's multiset
    need: int  # the fewest wilds that make it legal
    slack: int  # how many more wilds it could take
    table: int  # the table meld it extends, or -1
    bit: int  # that table meld's bit in the search's mask, or 0
    picks: dict[int, int]  # copies of each face (see `face_index`)
    kind: str  # "set", "run" or "layoff"


class TableMeld:
    """What a shown meld of another player can take (redemption)."""

    def __init__(self, meld: Sequence[Card], wild_rank: int | None, rules: Rules):
        if not is_meld(meld, wild_rank, rules):
            raise ValueError(f"not a meld on the table: {' '.join(map(str, meld))}")
        cap = rules.max_wilds_per_meld
        self.naturals = naturals_of(meld, wild_rank)
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


class GeneralSearch:
    """The memoized search over one hand (and the table melds it may lay off onto)."""

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
        self.wild_cards = sorted(
            wilds_of(hand, wild_rank), key=lambda c: (rules.penalty(c, wild_rank), c)
        )
        self.cards_of: dict[int, list[Card]] = {}
        for c in sorted(naturals_of(hand, wild_rank)):
            self.cards_of.setdefault(face_index(c), []).append(c)
        counts = {t: len(cs) for t, cs in self.cards_of.items()}
        bits = max(2, max(counts.values(), default=1).bit_length())
        self.fw = fw = bits + 1
        self.guard = CACHE.guards.get(fw) or CACHE.guards.keep(
            fw, sum(1 << (t * fw + bits) for t in range(52))
        )
        self.root = sum(n << (t * fw) for t, n in counts.items())
        self.pen = [0] * 52
        for t, cs in self.cards_of.items():
            self.pen[t] = rules.penalty(cs[0], wild_rank)
        self.tables = [TableMeld(m, wild_rank, rules) for m in table_melds]
        # Pure sets on the table take any natural of their rank, whatever else happens.
        self.free_table: dict[int, int] = {}
        base_slack = 0
        for i, tb in enumerate(self.tables):
            if tb.is_pure_set:
                assert tb.set_rank is not None, "a pure set is of one rank"
                base_slack += tb.slack0
                for suit in range(4):
                    self.free_table.setdefault(suit * 13 + tb.set_rank - 1, i)
        for t in self.free_table:
            self.pen[t] = 0
        self.general = [i for i, tb in enumerate(self.tables) if not tb.is_pure_set]
        self.base_slack = base_slack
        self.cands: dict[int, list[Candidate]] = {t: [] for t in counts}
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
        self.memo: dict[tuple[int, int, int, int], tuple[int, Candidate | None]] = {}

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
        remembered = CACHE.candidates
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
            cands = remembered.get(key)
            if cands is None:
                cands = remembered.keep(key, self._own_candidates_of(t, counts))
            self.cands[t] = list(cands)

    def _own_candidates_of(self, t: int, counts: dict[int, int]) -> list[Candidate]:
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
                out.append(Candidate(self._delta(picks), need, slack, -1, 0, picks, "set"))
        # runs: t as lowest natural, distinct higher ranks of its suit
        held = [r for r in range(1, 14) if suit * 13 + r - 1 in counts]
        for ranks, span in runs_from(rank, held, self.rules.aces_high):
            need = max(3, span) - len(ranks)
            slack = self._meld_room(need, MAX_RUN - max(3, span))
            if slack is None:
                continue
            picks = {suit * 13 + r - 1: 1 for r in sorted(ranks)}
            out.append(Candidate(self._delta(picks), need, slack, -1, 0, picks, "run"))
        return out

    def _table_candidates(self, counts: dict[int, int]) -> None:
        for i in self.general:
            tb = self.tables[i]
            bit = 1 << i
            options: list[tuple[dict[int, int], int, int]] = []  # (picks, need, slack)
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
                            need = max(0, run_span(ranks, self.rules.aces_high) - length)
                            if length + need > MAX_RUN or need > tb.wild_room:
                                continue
                            slack = min(MAX_RUN - length - need, tb.wild_room - need)
                            options.append(({suit * 13 + r - 1: 1 for r in combo}, need, slack))
            for picks, need, slack in options:
                low = min(picks)
                delta = self._delta(picks)
                self.cands[low].append(Candidate(delta, need, slack, i, bit, picks, "layoff"))

    # -- the memoized search ---------------------------------------------------------------------
    def solve(self, state: int, w: int, s: int, mask: int) -> int:
        """The least penalty from (naturals left, wilds left, spare wild room, table melds
        extended); the memo keeps (that penalty, the candidate chosen or None for deadwood)."""
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

    def penalty(self) -> int:
        """The least penalty of the whole hand."""
        return self.solve(*self.start())

    # -- turning the search back into cards -------------------------------------------------------
    def arrangement(self) -> Arrangement:
        """The whole hand's best arrangement."""
        state, w, s, mask = self.start()
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
            cards = [pools[u].pop(0) for u, k in sorted(choice.picks.items()) for _ in range(k)]
            if choice.kind == "layoff":
                lays.setdefault(choice.table, []).extend(cards)
            melds.append((choice.kind, cards, choice.need, choice.slack, choice.table))
            state -= choice.delta
            w -= choice.need
            s = min(s + choice.slack, w)
            mask |= choice.bit
        placed, all_wild = self._absorb(w, s, mask)
        wilds = list(self.wilds)  # cheapest first
        leftover = len(wilds) - (sum(need for _, _, need, _, _ in melds) + placed)
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
        aces_high = self.rules.aces_high
        for k, (kind, cards, need, _, table) in enumerate(melds):
            mine = [melded_wilds.pop() for _ in range(need + given[k])]
            if kind == "layoff":
                lays[table].extend(mine)
            elif kind == "run":
                ranks = run_order([c.rank for c in cards], aces_high)
                by_rank = {c.rank: c for c in cards}
                own.append(lay_out_run([by_rank[r] for r in ranks], ranks, mine, aces_high))
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

    def discard_options(self) -> dict[Card, int]:
        """For each card, the least penalty of the others: one memo serves every natural
        discarded, and discarding a wild changes only which wilds are left, so each kind of
        wild (by penalty) shares one more memo."""
        rules, wild_rank = self.rules, self.wild_rank
        result: dict[Card, int] = {}
        root, w, s, mask = self.start()
        fw = self.fw
        for t, cards in self.cards_of.items():
            value = self.solve(root - (1 << (t * fw)), w, s, mask)
            for c in cards:
                result[c] = value
        all_wilds = self.wilds
        by_penalty: dict[int, list[Card]] = {}
        for c in all_wilds:
            by_penalty.setdefault(rules.penalty(c, wild_rank), []).append(c)
        for cards in by_penalty.values():
            gone = all_wilds.index(cards[0])
            self.set_wilds(all_wilds[:gone] + all_wilds[gone + 1 :])
            value = self.solve(root, w - 1, min(self.base_slack, w - 1), mask)
            for c in cards:
                result[c] = value
        return result
