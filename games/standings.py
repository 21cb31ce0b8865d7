"""Points for a place at a table, the one scale leagues and tournaments both count by: a player
scores a point for each player at the table who finished below them and half a point for each who
tied with them (seats_rank: lowest total first, a tie shares the rank). Two players: 1 for the
win, 0 for the loss, ½ each for a tie; three players: 2, 1, 0. Points are kept in halves, as
integers, so that sums stay exact."""

from collections.abc import Mapping


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
