"""Everything the solver remembers across calls, in one object with one way to forget it.

Every table is a `Memo`: a dict that forgets all its entries at once when it reaches its limit
(a long-running process), which changes no answer, only how soon one comes. `CACHE.clear()`
forgets everything; `CACHE.tables()` names every table (the suit tables' own included)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any


class Memo(dict[Any, Any]):
    """A dict of remembered answers, emptied all at once when it reaches `limit` entries."""

    __slots__ = ("limit",)

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def keep[T](self, key: Hashable, value: T) -> T:
        """Remember `value` under `key` (forgetting everything first if full); returns it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


class SolverCache:
    """The solver's memory. The fast path's per-suit tables (`SuitTable`, one per penalty
    switches) hold their own memos and are listed by `tables()`."""

    def __init__(self) -> None:
        # the fast path
        self.suit_tables = Memo(16)  # (aces_high, face_cards_by_rank) -> SuitTable
        self.contexts = Memo(1000)  # (wild rank, aces_high, face_cards_by_rank) -> Context
        self.last_context: tuple[Any, Any, Any] = (None, None, None)  # rules, wild rank, context
        self.cross_sets = Memo(100_000)  # a rank's cross-suit sets, by its `cross_key`
        self.run_layouts = Memo(20_000)  # (ranks, wilds, aces_high) -> where each card goes
        self.rows = Memo(100_000)  # one shared object per distinct suit row
        self.meld_shapes = Memo(100_000)  # one shared object per suit-table meld
        # the general search
        self.candidates = Memo(20_000)  # a card's candidate melds, by what surrounds it
        self.guards = Memo(64)  # guard bits of a multiset of naturals, by field width

    def tables(self) -> dict[str, Memo]:
        """Every table, by name."""
        found = {name: value for name, value in vars(self).items() if isinstance(value, Memo)}
        for key, table in self.suit_tables.items():
            for name, memo in table.memos().items():
                found[f"suit table {key}: {name}"] = memo
        return found

    def sizes(self) -> dict[str, int]:
        return {name: len(memo) for name, memo in self.tables().items()}

    def clear(self) -> None:
        """Forget everything (the next call rebuilds what it needs)."""
        for memo in self.tables().values():
            memo.clear()
        self.last_context = (None, None, None)


CACHE = SolverCache()
