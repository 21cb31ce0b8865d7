"""The moves a seat can make (draw, discard, go out) and their JSON form, both ways."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .errors import RuleError, gettext_noop
from .tokens import token_of

SOURCES = ("stock", "discard")


@dataclass(frozen=True, slots=True)
class Draw:
    seat: int
    # "stock" or "discard": a player's request may name anything, which the state refuses
    # (GameState._check) with the rule a player can read.
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw", "seat": self.seat, "source": self.source}


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "discard", "seat": self.seat, "card": token_of(self.card)}


@dataclass(frozen=True, slots=True)
class GoOut:
    seat: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "go_out", "seat": self.seat, "card": token_of(self.card)}


Action = Draw | Discard | GoOut


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """The inverse of `action.to_dict()`; junk raises RuleError."""
    try:
        kind, seat = data["type"], data["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise TypeError
        if kind == "draw":
            if data["source"] not in SOURCES:
                raise ValueError
            return Draw(seat, data["source"])
        if kind in ("discard", "go_out"):
            card = Card.from_token(data["card"])
            return Discard(seat, card) if kind == "discard" else GoOut(seat, card)
    except (KeyError, TypeError, ValueError, AttributeError):
        pass
    raise RuleError(gettext_noop("That is not a move of this game."))
