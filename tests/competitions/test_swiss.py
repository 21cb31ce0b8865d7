"""Swiss seating (games/pairing.py), by property: every player seated once a round,
tables of the size asked or one short where the count does not divide, and, in small cases, no
repeated meeting whenever a seating without one exists (found by brute force)."""

from itertools import combinations, permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.pairing import repeats, seat, table_sizes
from tests.examples import examples

pytestmark = pytest.mark.engine


@st.composite
def seatings(draw, max_players=40):
    seats = draw(st.integers(2, 4))
    count = draw(st.integers(seats, max_players))
    players = list(range(count))
    pairs = list(combinations(players, 2))
    met = draw(st.sets(st.sampled_from(pairs), max_size=len(pairs) // 2)) if pairs else set()
    return players, seats, {frozenset(p) for p in met}


@given(seatings())
def test_every_player_sits_once_at_tables_as_even_as_can_be(case):
    players, seats, met = case
    tables = seat(players, seats, met)
    assert sorted(p for t in tables for p in t) == players
    sizes = [len(t) for t in tables]
    assert max(sizes) <= seats and max(sizes) - min(sizes) <= 1
    assert len(tables) == -(-len(players) // seats), "as few tables as tables of `seats` allow"
    if len(players) % seats == 0:
        assert set(sizes) == {seats}


def brute_force_repeat_free(players, sizes, met) -> bool:
    """Whether some seating of `players` at tables of `sizes` has no repeated meeting."""
    for order in permutations(players):
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        if repeats(tables, met) == 0:
            return True
    return False


@examples()
@given(seatings(max_players=7))
def test_no_repeat_when_a_repeat_free_seating_exists(case):
    players, seats, met = case
    tables = seat(players, seats, met)
    if brute_force_repeat_free(players, table_sizes(len(players), seats), met):
        assert repeats(tables, met) == 0


def test_close_standings_sit_together_when_nobody_has_met():
    assert seat(list(range(7)), 3, set()) == [[0, 1, 2], [3, 4], [5, 6]]


def test_a_met_pair_is_split_by_the_next_best_placed():
    met = {frozenset((0, 1))}
    assert seat(list(range(6)), 3, met) == [[0, 2, 3], [1, 4, 5]]


def test_when_every_seating_repeats_swaps_keep_the_repeats_few():
    players = list(range(4))
    met = {frozenset(p) for p in combinations(players, 2)} - {frozenset((0, 3))}
    tables = seat(players, 2, met)
    assert repeats(tables, met) == 1


@pytest.mark.parametrize(
    "count, seats, sizes",
    [(12, 3, [3] * 4), (5, 2, [2, 2, 1]), (5, 4, [3, 2]), (13, 4, [4, 3, 3, 3])],
)
def test_table_sizes(count, seats, sizes):
    assert table_sizes(count, seats) == sizes


@given(seatings(max_players=400))
@examples(1 / 6)  # a field of up to 400
def test_a_large_field_is_seated_greedily_each_once(case):
    players, seats, met = case
    tables = seat(players, seats, met)
    assert sorted(p for t in tables for p in t) == players


def test_a_large_field_without_meetings_sits_in_order_of_standing():
    assert seat(list(range(300)), 3, set())[:2] == [[0, 1, 2], [3, 4, 5]]
