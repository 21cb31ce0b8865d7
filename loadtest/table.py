"""What a player reads off the table's HTML, as a browser's user would: whose turn, what may be
drawn, which cards may be discarded or go out, the hint's advice, where and how often to poll,
and where the stream of the game's changes is. Parsed with regular expressions over the markup
of templates/games/table.html (the table partial, whose tags may break between attributes);
tests/loadtest/test_loadtest_table.py renders a real table and checks each field, so a template
change that breaks the load test fails a test first."""

import dataclasses
import html
import re
from dataclasses import dataclass, field
from urllib.parse import urlencode

TABLE = re.compile(r'<div id="table"[^>]*\bdata-version="(\d+)"([^>]*)>')
EVENTS = re.compile(r'data-events="([^"]+)"')
POLL = re.compile(r'hx-get="([^"]+)"\s+hx-trigger="every (\d+)s')
PILE = re.compile(r'<button type="submit" name="source" value="(stock|discard)"([^>]*)>')
DISABLED = re.compile(r"\sdisabled(\s|$)")
DISCARD = re.compile(
    r'<button type="submit" name="card" value="([^"]+)"\s+class="hand-card[^"]*"[^>]*'
    r'aria-label="([^"]*)"'
)
GO_OUT = re.compile(r'<form method="post" action="([^"]+)"[^>]*class="go-out">(.*?)</form>', re.S)
GO_OUT_CARD = re.compile(r'name="card" value="([^"]+)"')
HINT = re.compile(r"Hint: discard the (.+?) to leave")
# What the page holds (#table-marks), which the table's requests send (htmx's hx-include).
MARK = re.compile(r'<input type="hidden" name="([vcrh])" value="([^"]*)">')
HAND = re.compile(r'<section class="my-hand" id="my-hand"')
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')


@dataclass
class Table:
    version: int
    poll_url: str | None  # None once the game is over: the table stops polling
    poll_seconds: int
    events_url: str | None = None  # the stream of the game's changes (while it is active)
    sources: list[str] = field(default_factory=list)  # the piles the player may draw from now
    discards: list[tuple[str, str]] = field(
        default_factory=list
    )  # (token, name) the player may discard
    go_out: list[str] = field(default_factory=list)  # tokens the player may go out with
    hint: str | None = None  # the name of the card the hint would discard
    chat: str | None = None  # the chat's version the page holds
    marks: dict = field(default_factory=dict)  # all the page holds: version, chat, round, hand

    @property
    def ask_url(self) -> str | None:
        """The poll's address with the marks it sends."""
        return f"{self.poll_url}?{urlencode(self.marks)}" if self.poll_url else None

    @property
    def my_turn(self) -> bool:
        return bool(self.sources or self.discards or self.go_out)

    @property
    def over(self) -> bool:
        return self.poll_url is None

    def advised_discard(self) -> str | None:
        """The token of the card the hint advises discarding, if it is among the choices."""
        for token, name in self.discards:
            if self.hint and name == self.hint:
                return token
        return self.discards[0][0] if self.discards else None


def marks_of(page: str) -> dict[str, str]:
    """The marks of what a page or an answer holds (#table-marks): v, c, r, h."""
    return dict(MARK.findall(page))


def parse_table(page: str, kept: Table | None = None) -> Table | None:
    """The table in a page or partial, or None when there is none (not a game page). An answer
    in parts (table.html#parts, no table element) updates `kept`, the table the page holds: its
    marks and piles always, its hand when the answer carries one."""
    marks = marks_of(page)
    found = TABLE.search(page)
    if found is None:
        if kept is None or "v" not in marks:
            return None
        table = dataclasses.replace(kept, version=int(marks["v"]), marks=marks)
        table.chat = marks.get("c")
        table.sources = _sources(page)
        if HAND.search(page):
            _read_hand(table, page)
        return table
    poll = POLL.search(found.group(2))
    table = Table(
        version=int(found.group(1)),
        poll_url=html.unescape(poll.group(1)) if poll else None,
        poll_seconds=int(poll.group(2)) if poll else 0,
        marks=marks,
    )
    if events := EVENTS.search(found.group(2)):
        table.events_url = html.unescape(events.group(1))
    table.sources = _sources(page)
    _read_hand(table, page)
    table.chat = marks.get("c")
    return table


def _sources(page: str) -> list[str]:
    return [source for source, rest in PILE.findall(page) if not DISABLED.search(rest)]


def _read_hand(table: Table, page: str) -> None:
    table.discards, table.go_out, table.hint = [], [], None
    for token, label in DISCARD.findall(page):
        name = html.unescape(label).removeprefix("Discard the ").removesuffix(" (just drawn)")
        table.discards.append((token, name))
    if go_out := GO_OUT.search(page):
        table.go_out = GO_OUT_CARD.findall(go_out.group(2))
    if hint := HINT.search(page):
        table.hint = html.unescape(hint.group(1))


def csrf_token(page: str) -> str | None:
    """The token a full page hands htmx (hx-headers on <body>), as the browser sends it."""
    found = CSRF.search(page)
    return found.group(1) if found else None
