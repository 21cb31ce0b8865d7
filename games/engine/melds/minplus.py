"""(min, +) sums of suit rows: the least deadwood of suits sharing wilds.

A row is a suit's least deadwood by the number of wilds its melds may need: row[w] for w wilds,
never rising, ending with 0 (past its end: 0). The fast path keeps rows padded with zeros to PAD
entries, so the written-out sums for up to four wilds index them without bounds checks."""

from __future__ import annotations

PAD = 17  # suit rows padded with zeros to this length: a hand holds at most 16 wilds

Row = tuple[int, ...]  # least deadwood by wilds allowed


def conv(a: Row, b: Row, budget: int) -> Row:
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


def point(a: Row, c: Row, budget: int) -> int:
    """min over w of a[budget - w] + c[w]: two rows combined at one budget."""
    # rows never rise and end with 0: a past its end, or c past its end, is no better
    low, high = max(0, budget - len(a) + 1), min(budget, len(c) - 1)
    if low > high:
        return 0
    return min([a[budget - w] + c[w] for w in range(low, high + 1)])


# The least of a[i] + b[j] + c[k] + d[l] with i + j + k + l = n, written out for the few wilds
# hands hold most often (n = 0..4): each pairs a with b and c with d, then the pairs at n. A few
# dozen additions and no loops cost a fraction of `conv`'s; the tests check them against it.


def sum_0(a: Row, b: Row, c: Row, d: Row) -> int:
    return a[0] + b[0] + c[0] + d[0]


def sum_1(a: Row, b: Row, c: Row, d: Row) -> int:
    a0, a1 = a[0], a[1]
    b0, b1 = b[0], b[1]
    c0, c1 = c[0], c[1]
    d0, d1 = d[0], d[1]
    l0 = a0 + b0
    l1 = min(a0 + b1, a1 + b0)
    h0 = c0 + d0
    h1 = min(c0 + d1, c1 + d0)
    return min(l0 + h1, l1 + h0)


def sum_2(a: Row, b: Row, c: Row, d: Row) -> int:
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


def sum_3(a: Row, b: Row, c: Row, d: Row) -> int:
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


def sum_4(a: Row, b: Row, c: Row, d: Row) -> int:
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


SUMS = (sum_0, sum_1, sum_2, sum_3, sum_4)


def least(a: Row, b: Row, c: Row, d: Row, n: int) -> int:
    """The least of a[i] + b[j] + c[k] + d[l] with i + j + k + l = n: the least deadwood of four
    suits sharing n wilds (rows padded with zeros past n)."""
    if n < 5:
        return SUMS[n](a, b, c, d)
    return point(conv(a, b, n), conv(c, d, n), n)


def split_budget(rows: list[Row], budget: int, value: int) -> list[int]:
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
