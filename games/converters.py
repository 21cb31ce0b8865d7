"""Path converters for the site's addresses."""

from __future__ import annotations

ID_MAX = 2**63 - 1  # the largest id a row can have (a signed 64-bit column, PostgreSQL's bigint)


class IdConverter:
    """A row's id in an address (`<id:game_id>`): digits, as Django's `int`, but a number past
    ID_MAX matches nothing, so the address is a 404 like any unknown id's. No row can hold such
    a number, and a query that compares one with a column fails rather than finding nothing
    (SQLite cannot be handed it: OverflowError, a 500)."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > ID_MAX:
            raise ValueError("past any id")
        return number

    def to_url(self, value: int) -> str:
        return str(value)
