"""Swiss seating, as plain Python: players in order of standing are cut into tables of close
standing, avoiding tables of players who have already met (docs/playing.md, "Tournaments").

Table sizes: as few tables as tables of `seats` allow, their sizes as even as can be (so a
count that does not divide leaves some tables one short); with two seats and an odd count the
last table is one player, a bye. The seating is searched depth-first: each table begins with the
best-placed player not yet seated, then takes the next best placed who has met nobody at it;
the search stops after a fixed number of steps and then takes the tables cut in order, improved
by swaps between neighbouring tables that lower the number of repeated meetings. Past
SEARCH_PLAYERS the same rule is taken greedily, without going back, then improved by swaps."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import combinations, pairwise

SEARCH_STEPS = 20_000
SEARCH_PLAYERS = 60  # past this many, one greedy pass (the search recurses a level a player)


def table_sizes(count: int, seats: int) -> list[int]:
    """The sizes of the tables `count` players sit at, tables of `seats` at most, largest first."""
    if count <= 0:
        return []
    tables = -(-count // seats)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def repeats[Player: Hashable](tables: Sequence[Sequence[Player]], met: set[frozenset]) -> int:
    """How many pairs of players sharing a table have met before."""
    return sum(frozenset(pair) in met for table in tables for pair in combinations(table, 2))


def seat[Player: Hashable](
    players: Sequence[Player], seats: int, met: set[frozenset]
) -> list[list[Player]]:
    """Tables for `players` (best placed first): no two players who met (`met` holds the pairs)
    at one table where the search finds such a seating, else as few repeats as swaps leave."""
    sizes = table_sizes(len(players), seats)
    if len(players) <= SEARCH_PLAYERS:
        found = _search(list(players), sizes, met)
        if found is not None:
            return found
        return _improve(_cut(list(players), sizes), met)
    return _improve(_greedy(list(players), sizes, met), met)


def _greedy(players: list, sizes: list[int], met: set[frozenset]) -> list[list]:
    """Each table, in order, begins with the best placed not yet seated and takes the next best
    placed who has met nobody at it (or, if none is left, the next best placed)."""
    left = list(players)
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            position = next(
                (
                    i
                    for i, p in enumerate(left)
                    if all(frozenset((p, other)) not in met for other in table)
                ),
                0,
            )
            table.append(left.pop(position))
        tables.append(table)
    return tables


def _cut(players: list, sizes: list[int]) -> list[list]:
    tables, start = [], 0
    for size in sizes:
        tables.append(players[start : start + size])
        start += size
    return tables


def _search(players: list, sizes: list[int], met: set[frozenset]) -> list[list] | None:
    steps = 0
    tables: list[list] = []
    seated: set = set()

    def fits(player, table) -> bool:
        return all(frozenset((player, other)) not in met for other in table)

    def fill(table: list, size: int, after: int, left: list[int]) -> bool:
        nonlocal steps
        if len(table) == size:
            tables.append(table)
            if place(left):
                return True
            tables.pop()
            return False
        for position in range(after, len(players)):
            steps += 1
            if steps > SEARCH_STEPS:
                return False
            candidate = players[position]
            if candidate in seated or not fits(candidate, table):
                continue
            seated.add(candidate)
            if fill([*table, candidate], size, position + 1, left):
                return True
            seated.discard(candidate)
        return False

    def place(left: list[int]) -> bool:
        if not left:
            return True
        first = next(position for position, p in enumerate(players) if p not in seated)
        seated.add(players[first])
        for size in dict.fromkeys(left):  # each distinct size once, largest first
            rest = list(left)
            rest.remove(size)
            if fill([players[first]], size, first + 1, rest):
                return True
            if steps > SEARCH_STEPS:
                break
        seated.discard(players[first])
        return False

    if place(list(sizes)):
        return tables
    return None


def _improve(tables: list[list], met: set[frozenset]) -> list[list]:
    """Swap players between neighbouring tables while a swap lowers the repeats of the two."""
    improved = True
    while improved:
        improved = False
        for upper, lower in pairwise(tables):
            for i, j in ((i, j) for i in range(len(upper)) for j in range(len(lower))):
                before = repeats([upper, lower], met)
                upper[i], lower[j] = lower[j], upper[i]
                if repeats([upper, lower], met) < before:
                    improved = True
                else:
                    upper[i], lower[j] = lower[j], upper[i]
    return tables
