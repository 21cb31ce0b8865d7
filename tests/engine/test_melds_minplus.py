"""The (min, +) sums of suit rows (`melds.minplus`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.melds import minplus
from tests.examples import examples

pytestmark = pytest.mark.engine


@examples(4 / 3)
@given(
    rows=st.lists(
        st.lists(st.integers(0, 60), min_size=1, max_size=8).map(
            lambda xs: (*sorted(xs, reverse=True), 0)
        ),
        min_size=4,
        max_size=4,
    ),
    n=st.integers(0, 4),
)
def test_written_out_sums_match_the_loops(rows, n):
    """The (min, +) of four suit rows written out for up to four wilds equals the general loops
    (rows never rise and end with 0; padded with zeros as the suit table keeps them)."""
    padded = [row + (0,) * minplus.PAD for row in rows]
    a, b, c, d = rows
    expected = minplus.point(minplus.conv(a, b, n), minplus.conv(c, d, n), n)
    assert minplus.SUMS[n](*padded) == expected
    assert minplus.least(*padded, n) == expected
