"""Server-sent events read line by line, as a browser's EventSource does (the part of the
format the site's streams use: `event:`, `data:`, `retry:`, comments, a blank line ends an
event)."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass


@dataclass
class Event:
    name: str
    data: str


def read_events(readline: Callable[[], bytes]) -> Iterator[Event]:
    """The events of a stream whose next line `readline` returns (b"" at its end)."""
    name, data = "", []
    while line := readline():
        text = line.decode("utf-8", errors="replace").rstrip("\r\n")
        if not text:  # the event is complete
            if data:
                yield Event(name or "message", "\n".join(data))
            name, data = "", []
            continue
        if text.startswith(":"):  # a comment: the keep-alive
            continue
        field, _colon, value = text.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
