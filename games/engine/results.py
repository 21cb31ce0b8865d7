"""What play came to: a seat's round (melds, lay-offs, deadwood, penalty), a finished round, and
the record of what one action did, with the redaction that hides a stock draw from the others."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import Card
from .tokens import cards_of, melds_from_json, melds_to_json, token_of, tokens_of


@dataclass(frozen=True, slots=True)
class Layoff:
    """Cards laid off (redemption) onto the `meld`-th meld shown by `seat`."""

    seat: int
    meld: int
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "meld": self.meld, "cards": tokens_of(self.cards)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Layoff:
        return cls(data["seat"], data["meld"], tuple(cards_of(data["cards"])))


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's round: its own melds, lay-offs and deadwood partition `hand`."""

    penalty: int  # after the round multiplier
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    layoffs: tuple[Layoff, ...]
    hand: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "penalty": self.penalty,
            "melds": melds_to_json(self.melds),
            "deadwood": tokens_of(self.deadwood),
            "layoffs": [layoff.to_dict() for layoff in self.layoffs],
            "hand": tokens_of(self.hand),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatResult:
        return cls(
            penalty=data["penalty"],
            melds=melds_from_json(data["melds"]),
            deadwood=tuple(cards_of(data["deadwood"])),
            layoffs=tuple(Layoff.from_dict(item) for item in data["layoffs"]),
            hand=tuple(cards_of(data["hand"])),
        )


@dataclass(frozen=True, slots=True)
class RoundResult:
    round_index: int
    hand_size: int
    wild_rank: int
    went_out: int | None  # None: the round hit the turn limit
    multiplier: int
    seats: tuple[SeatResult, ...]
    _json: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def penalties(self) -> list[int]:
        return [seat.penalty for seat in self.seats]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready. Computed once and shared (every view and snapshot carries the finished
        rounds): treat it as read-only."""
        data = self._json
        if data is None:
            data = {
                "round_index": self.round_index,
                "hand_size": self.hand_size,
                "wild_rank": self.wild_rank,
                "went_out": self.went_out,
                "multiplier": self.multiplier,
                "seats": [seat.to_dict() for seat in self.seats],
            }
            object.__setattr__(self, "_json", data)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundResult:
        return cls(
            round_index=data["round_index"],
            hand_size=data["hand_size"],
            wild_rank=data["wild_rank"],
            went_out=data["went_out"],
            multiplier=data["multiplier"],
            seats=tuple(SeatResult.from_dict(item) for item in data["seats"]),
        )


@dataclass(frozen=True, slots=True)
class MoveRecord:
    seat: int
    type: Literal["draw", "discard", "go_out"]
    source: str | None  # "stock" or "discard" for a draw
    card: Card  # the card drawn or discarded
    round_index: int
    action_index: int  # 0-based position of this action in the game
    melds: tuple[tuple[Card, ...], ...] = ()  # shown with this action (go out; redemption lay-down)
    layoffs: tuple[Layoff, ...] = ()  # redemption lay-offs made with this action
    reshuffled: bool = False  # the discard pile was shuffled into a new stock before this draw
    round_ended: bool = False
    game_over: bool = False

    def public_for(self, viewer_seat: int | None) -> dict[str, Any]:
        """The record as `viewer_seat` may see it: a stock draw's card only for the drawer."""
        return redact_record(self.to_dict(), viewer_seat)

    def to_dict(self) -> dict[str, Any]:
        """Everything, the drawn card included: for the mover or for storage, never for others."""
        return {
            "seat": self.seat,
            "type": self.type,
            "source": self.source,
            "card": token_of(self.card),
            "round_index": self.round_index,
            "action_index": self.action_index,
            "melds": melds_to_json(self.melds),
            "layoffs": [layoff.to_dict() for layoff in self.layoffs],
            "reshuffled": self.reshuffled,
            "round_ended": self.round_ended,
            "game_over": self.game_over,
        }


def redact_record(record: Mapping[str, Any], viewer_seat: int | None) -> dict[str, Any]:
    """A stored record (MoveRecord.to_dict) as `viewer_seat` may see it."""
    hidden = record["type"] == "draw" and record["source"] == "stock"
    if hidden and viewer_seat != record["seat"]:
        return {**record, "card": None}
    return dict(record)
