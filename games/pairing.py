"""Who sits with whom, and what a place at a table is worth, as plain Python (no Django), for
the competitions (games/competitions/): a tournament's Swiss seating, a league division's plan
of tables, and the points both count by.

Swiss seating: players in order of standing are cut into tables of close standing, avoiding
tables of players who have already met (docs/playing.md, "Tournaments").

Table sizes: as few tables as tables of `seats` allow, their sizes as even as can be (so a
count that does not divide leaves some tables one short); with two seats and an odd count the
last table is one player, a bye. The seating is searched depth-first: each table begins with the
best-placed player not yet seated, then takes the next best placed who has met nobody at it;
the search stops after a fixed number of steps and then takes the tables cut in order, improved
by swaps between neighbouring tables that lower the number of repeated meetings. Past
SEARCH_PLAYERS the same rule is taken greedily, without going back, then improved by swaps."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
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


# -- a league division's plan: every pair meets once, wave by wave -----------------------------


def pair_waves(players: list[int]) -> list[list[tuple[int, ...]]]:
    """Two at a table: every pair once, by the circle method, a round a wave."""
    ring: list[int | None] = list(players) + ([None] if len(players) % 2 else [])
    waves = []
    for _round in range(len(ring) - 1):
        half = len(ring) // 2
        pairs = [(ring[i], ring[-1 - i]) for i in range(half)]
        waves.append([p for p in pairs if None not in p])  # type: ignore[misc]
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return waves


def triple_tables(players: list[int]) -> list[tuple[int, ...]]:
    """Three at a table: a greedy covering of every pair, each table the one meeting the most
    pairs not met yet, then the players with the fewest tables so far (balanced), then the
    earliest in the list (deterministic)."""
    unmet = set(itertools.combinations(players, 2))
    tables: list[tuple[int, ...]] = []
    games: Counter[int] = Counter()
    while unmet:
        best = min(
            itertools.combinations(players, 3),
            key=lambda t: (
                -sum(pair in unmet for pair in itertools.combinations(t, 2)),
                sum(games[p] for p in t),
            ),
        )
        tables.append(best)
        games.update(best)
        unmet -= set(itertools.combinations(best, 2))
    return tables


def group_waves(tables: list[tuple[int, ...]]) -> list[list[tuple[int, ...]]]:
    """Each table in the first wave where none of its players plays yet."""
    waves: list[list[tuple[int, ...]]] = []
    for table in tables:
        for wave in waves:
            if not any(p in t for t in wave for p in table):
                wave.append(table)
                break
        else:
            waves.append([table])
    return waves


def fixture_plan(players: list[int], seats_per_table: int) -> list[list[tuple[int, ...]]]:
    """A division's tables wave by wave (`players` in seeding order)."""
    if seats_per_table == 2:
        return pair_waves(players)
    return group_waves(triple_tables(players))


def division_sizes(count: int, division_size: int, *, smallest: int) -> list[int]:
    """`count` players in divisions of about `division_size`, the sizes as even as can be
    (larger ones on top), none under `smallest` where avoidable."""
    divisions = max(1, math.ceil(count / division_size))
    while divisions > 1 and count // divisions < smallest:
        divisions -= 1
    base, extra = divmod(count, divisions)
    return [base + (level < extra) for level in range(divisions)]


# -- points for a place at a table ------------------------------------------------------------
# Points for a place at a table, the one scale leagues and tournaments both count by: a player
# scores a point for each player at the table who finished below them and half a point for each who
# tied with them (seats_rank: lowest total first, a tie shares the rank). Two players: 1 for the
# win, 0 for the loss, ½ each for a tie; three players: 2, 1, 0. Points are kept in halves, as
# integers, so that sums stay exact.


def table_half_points[Key](ranks: Mapping[Key, int]) -> dict[Key, int]:
    """Each player's points in halves, from the final ranks of one table (1 is first)."""
    return {
        key: sum(2 if rank < other else 1 if rank == other else 0 for other in ranks.values()) - 1
        for key, rank in ranks.items()
    }


def points_text(half_points: int) -> str:
    """Half points as a player reads them: 3, ½, 2½."""
    whole, half = divmod(half_points, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"
