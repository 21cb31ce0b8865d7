"""What the API's requests and answers look like (its OpenAPI schema is written from these).
Cards are tokens: rank then suit, "7H", "10D", "QS", "AC", a joker "JK"; with two decks or more,
a further copy of a card ends in its number ("7H.1", "JK.1")."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from ninja import Schema
from pydantic import BeforeValidator, ConfigDict, Field, StrictBool

from accounts.models import BotLevel

from ..engine import BOTS
from ..models import CHAT_MESSAGE_MAX_LENGTH, MAX_TIMEOUTS_LIMIT, TIME_PER_MOVE_DAYS
from ..newgame import ROUNDS, VARIANTS


def _example(**example):
    return ConfigDict(json_schema_extra={"examples": [example]})


def _json_integer(value):
    """An integer as the schema's JSON Schema has it (3, or 3.0), never true for 1 nor "3" for 3:
    pydantic's lax int takes both, its strict mode not 3.0, and a Literal ignores strict mode."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if type(value) is not int:
        raise ValueError("Input should be a valid integer")
    return value


JsonInt = Annotated[int, BeforeValidator(_json_integer)]


# A card as the API writes it: rank then suit, a joker JK, a further copy's number after a dot.
CARD_PATTERN = r"^(?:(?:[2-9]|10|[AJQK])[SHDC]|JK)(?:\.[0-9])?$"


class Problem(Schema):
    """A refusal: the message is for a person to read, in the account's language."""

    model_config = _example(detail="The game has moved on since you looked: here is the table now.")
    detail: str


class Player(Schema):
    model_config = _example(
        id=7, username="ann", name="Ann", is_bot=False, owner=None, rating=1012, provisional=False
    )
    id: int
    username: str
    name: str
    is_bot: bool
    owner: str | None = Field(None, description="The username of a player's own bot's owner.")
    rating: int | None
    provisional: bool


class Me(Player):
    model_config = _example(
        id=7, username="ann", name="Ann", is_bot=False, owner=None, rating=1012,
        provisional=False, language="en", scopes=["play", "read"], bots=["annbot"],
    )  # fmt: skip
    language: str
    scopes: list[str] = Field(description="What the token in use may do.")
    bots: list[str] = Field(description="The usernames of the bots this player owns.")


class SeatFacts(Schema):
    model_config = _example(
        index=0, cards=4, total=12, melds=[], resigned=False, autopilot=False,
        player={"id": 7, "username": "ann", "name": "Ann", "is_bot": False, "owner": None,
                "rating": 1012, "provisional": False},
    )  # fmt: skip
    index: int
    player: Player
    cards: int = Field(description="How many cards the seat holds.")
    total: int = Field(description="Its penalty points so far (lowest wins).")
    melds: list[list[str]] = Field(description="Melds it laid down this round (lists of cards).")
    resigned: bool
    autopilot: bool


class GameFacts(Schema):
    """What anyone who may watch the game sees: never a hand."""

    model_config = _example(
        id=42, status="active", version=17, seat_count=2, to_move=1, round=2, rounds=11,
        wild_rank=4, top_discard="9C", stock_size=38, chat_count=3, time_per_move_days=3,
        deadline="2026-12-07T09:00:00Z", rated=True, listed=True, end_reason="",
        scores=[[0, 12]], winners=[], seats=[],
    )  # fmt: skip
    id: int
    status: Literal["open", "active", "finished", "cancelled"]
    version: int = Field(description="How many moves were played: send it back with a move.")
    seat_count: int
    to_move: int | None
    round: int
    rounds: int
    wild_rank: int | None = Field(description="1 = ace, 11 = jack, 12 = queen, 13 = king.")
    top_discard: str | None
    stock_size: int | None
    chat_count: int = Field(description="Chat messages the viewer may read (0 if none).")
    time_per_move_days: int | None
    deadline: datetime | None
    rated: bool
    listed: bool
    end_reason: str
    scores: list[list[int]] = Field(description="Each finished round's penalties, per seat.")
    winners: list[int]
    seats: list[SeatFacts]


class GameRow(Schema):
    """A game in the player's lists (the dashboard's rows)."""

    model_config = _example(
        id=42, status="active", my_turn=True, seat=0, players=["Ann", "Easy Bot"], round=2,
        rounds=11, deadline=None, place=1, score=12,
    )  # fmt: skip
    id: int
    status: str
    my_turn: bool
    seat: int
    players: list[str]
    round: int
    rounds: int
    deadline: datetime | None
    place: int | None
    score: int | None


class GameList(Schema):
    model_config = _example(
        items=[{"id": 42, "status": "active", "my_turn": True, "seat": 0,
                "players": ["Ann", "Easy Bot"], "round": 2, "rounds": 11, "deadline": None,
                "place": 1, "score": 12}],
        page=1, pages=1,
    )  # fmt: skip
    items: list[GameRow]
    page: int
    pages: int


class View(Schema):
    """The table as the viewer's seat sees it (the engine's PlayerView): their own hand only,
    and the moves they may make now."""

    model_config = _example(
        game=42, version=17, seat=0, phase="discard", to_move=0, hand=["9H", "8S", "5S", "10D"],
        top_discard="QD", drawn_from_discard="10D",
        legal_actions=[{"type": "discard", "seat": 0, "card": "9H"}],
    )  # fmt: skip
    game: int
    version: int
    seat: int | None = Field(description="The viewer's seat; null for a spectator.")
    phase: str = Field(description="'draw' or 'discard', for the seat to move.")
    to_move: int | None
    hand: list[str] | None = Field(description="The viewer's own cards; null for a spectator.")
    top_discard: str | None
    drawn_from_discard: str | None = Field(
        description="The card just taken from the pile, which may not go back this turn."
    )
    legal_actions: list[dict]
    round_index: int
    round_count: int
    hand_size: int
    wild_rank: int
    dealer: int
    stock_size: int
    card_counts: list[int]
    shown_melds: list[list[list[str]]]
    went_out: int | None
    last_turns: bool
    scores: list[list[int]]
    round_results: list[dict]
    totals: list[int]
    is_over: bool
    winners: list[int]
    pile_events: list[list] = Field(description="This round's discard pile: [seat, kind, card].")
    rules: dict
    players: int


class HistoryLine(Schema):
    model_config = _example(
        seq=1, round=1, text="Ann drew from the stock.", at="2026-12-04T09:00:00Z", by_bot=False
    )
    seq: int
    round: int
    text: str
    at: datetime
    by_bot: bool


class ChatLine(Schema):
    model_config = _example(seq=1, name="Ann", text="Good game!", at="2026-12-04T09:00:00Z",
                            mine=True)  # fmt: skip
    seq: int
    name: str
    text: str
    at: datetime
    mine: bool


class ChatIn(Schema):
    model_config = _example(text="Good game!")
    text: str = Field(
        min_length=1,
        max_length=CHAT_MESSAGE_MAX_LENGTH,
        description="One line: line breaks and control characters become spaces, and runs of"
        " spaces one; a text of nothing else is refused.",
    )


class DrawIn(Schema):
    model_config = _example(version=16, source="stock")
    version: JsonInt = Field(ge=0, description="The game's version as you last saw it.")
    source: Literal["stock", "discard"]


class CardIn(Schema):
    model_config = _example(version=17, card="9H")
    version: JsonInt = Field(ge=0)
    card: str = Field(
        max_length=8, pattern=CARD_PATTERN, description="A card's token: '9H', 'JK.1'."
    )


class JoinIn(Schema):
    model_config = _example(invite_code=None)
    invite_code: str | None = Field(None, max_length=40)


class NewGameIn(Schema):
    """A new game, as the site's New game form makes it."""

    model_config = _example(
        seat_count=3, seats=["hard", ""], time_per_move_days=3, visibility="private"
    )
    seat_count: JsonInt = Field(ge=2, le=8)
    seats: list[Literal[("", *BotLevel.values)]] = Field(
        default_factory=list,
        max_length=7,
        description="Seats 2, 3, …: a bot level or '' for a person.",
    )
    bots: Literal[("", *BOTS)] = Field(
        "", description="A bot level to fill the seats left to people, or ''."
    )
    time_per_move_days: Annotated[
        Literal[(0, *TIME_PER_MOVE_DAYS)],
        BeforeValidator(_json_integer),
    ] = Field(3, description="0 for no limit; else as the form offers.")
    max_timeouts: JsonInt = Field(3, ge=1, le=MAX_TIMEOUTS_LIMIT)
    visibility: Literal["listed", "friends", "private"] = "private"
    rounds: Literal[ROUNDS] = "classic"
    variants: list[Literal[VARIANTS]] = Field(
        default_factory=list, max_length=20, description="Rule switches."
    )
    start_when_full: StrictBool = True


class Invitation(Schema):
    model_config = _example(id=5, game=42, invited_by="Ann", players=["Ann"])
    id: int
    game: int
    invited_by: str
    players: list[str]
