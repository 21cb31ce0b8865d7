"""Clock arithmetic (games/clock.py)."""

from games.clock import clock_end
from tests.deadlines.helpers import DAY, at


def test_the_clock_stands_still_during_pauses():
    start = at(1)
    assert clock_end(start, DAY, []) == at(2)
    assert clock_end(start, DAY, [(at(1, 6), at(1, 10))]) == at(2, 4)
    # A pause under way when the clock starts counts from the start only.
    assert clock_end(start, DAY, [(at(1) - DAY, at(1, 5))]) == at(2, 5)
    # A pause that begins after the time is up changes nothing …
    assert clock_end(start, DAY, [(at(3), at(4))]) == at(2)
    # … unless an earlier pause pushed the end past its beginning.
    assert clock_end(start, DAY, [(at(1, 12), at(2)), (at(2, 6), at(2, 8))]) == at(2, 14)
