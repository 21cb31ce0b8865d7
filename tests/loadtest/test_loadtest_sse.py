"""The load test's players read the table's stream as a browser's EventSource does
(loadtest/sse.py): the stream's text as games/events.py writes it (tests/test_events.py reads it
from the site), read line by line."""

import json

from loadtest.sse import read_events


def lines_of(text: str):
    lines = iter(text.encode().splitlines(keepends=True))
    return lambda: next(lines, b"")


def test_events_are_read_and_the_retry_hint_and_keep_alives_skipped():
    stream = 'retry: 2000\n\nevent: changed\ndata: {"v": 7, "t": 1.5}\n\n: keep-alive\n\n'
    stream += 'event: changed\r\ndata:{"v": 8}\r\n\r\n'
    events = list(read_events(lines_of(stream)))
    assert [event.name for event in events] == ["changed", "changed"]
    assert json.loads(events[0].data) == {"v": 7, "t": 1.5}
    assert json.loads(events[1].data) == {"v": 8}


def test_data_lines_join_and_an_unnamed_event_is_a_message():
    events = list(read_events(lines_of("data: a\ndata: b\n\nevent: cut\ndata: never ended\n")))
    assert [(event.name, event.data) for event in events] == [("message", "a\nb")]
