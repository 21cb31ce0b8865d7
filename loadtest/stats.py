"""The one percentile both the locustfile and the runner use."""


def percentile(ordered: list[float], q: int) -> float:
    """The nearest-rank percentile of a sorted list (0 for an empty one)."""
    if not ordered:
        return 0.0
    rank = max(1, -(-q * len(ordered) // 100))  # ceil(q/100 * n)
    return ordered[rank - 1]
