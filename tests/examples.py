"""How many examples a property test tries: a share of the Hypothesis profile's count (`ci` or
`dev`, tests/conftest.py), so that one variable sizes every property test."""

from hypothesis import settings


def examples(share: float = 1, **more) -> settings:
    """The profile's settings with `share` of its examples (at least 3), and any other setting
    given: 2 for a test twice as cheap as the common one, 1 / 12 for one whose every example is a
    whole game."""
    return settings(max_examples=max(3, round(settings.default.max_examples * share)), **more)
