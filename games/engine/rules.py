"""The variant switches of the rules (docs/playing.md, "Variants"), and the facts that follow
from them (decks, rounds, wilds, card penalties)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from .cards import Card

ROUND_SCHEDULES = {
    "classic": tuple(range(3, 14)),
    "extended": tuple(range(3, 16)),
    "up_and_down": tuple(range(3, 14)) + tuple(range(13, 2, -1)),
}
MIN_PLAYERS, MAX_PLAYERS = 2, 8
MIN_STOCK_AFTER_DEAL = 20
JOKER_PENALTY = 20


@dataclass(frozen=True, slots=True)
class Rules:
    aces_high: bool = False
    face_cards_by_rank: bool = False
    wild_penalty: int | None = None  # None: a left-over wild costs its face value
    max_wilds_per_meld: int | None = None  # 1 for "one wild per meld"
    all_wild_melds: bool = False
    jokers: bool = False
    rounds: str = "classic"  # "classic", "extended", "up_and_down"
    double_face_rounds: bool = False
    redemption: bool = False
    turn_limit: int = 100  # turns per player after which a round ends as it stands

    def __post_init__(self) -> None:
        if self.rounds not in ROUND_SCHEDULES:
            raise ValueError(f"unknown round schedule {self.rounds!r}")
        if self.max_wilds_per_meld is not None and self.max_wilds_per_meld < 1:
            raise ValueError("max_wilds_per_meld must be at least 1")

    # -- serialization ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    # -- what follows from the switches ----------------------------------------------------
    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards dealt to each player, round by round."""
        return ROUND_SCHEDULES[self.rounds]

    @property
    def round_count(self) -> int:
        return len(self.hand_sizes)

    @staticmethod
    def wild_rank_for(hand_size: int) -> int:
        """The rank dealt is wild: 3s with 3 cards .. kings with 13, then aces (14) and 2s (15)."""
        return hand_size if hand_size <= 13 else hand_size - 13

    def deck_count(self, players: int) -> int:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Three Thirteen takes {MIN_PLAYERS} to {MAX_PLAYERS} players")
        decks = 1 if players == 2 else 2
        per_deck = 54 if self.jokers else 52
        while decks * per_deck - players * max(self.hand_sizes) < MIN_STOCK_AFTER_DEAL:
            decks += 1
        return decks

    def is_wild(self, card: Card, wild_rank: int | None) -> bool:
        return card.is_joker or card.rank == wild_rank

    def face_value(self, card: Card) -> int:
        """What a card costs left over, ignoring wildness."""
        if card.is_joker:
            return JOKER_PENALTY
        if card.rank == 1:
            return 15 if self.aces_high else 1
        if card.rank > 10:
            return card.rank if self.face_cards_by_rank else 10
        return card.rank

    def penalty(self, card: Card, wild_rank: int | None) -> int:
        """What a left-over card costs in a round whose wild rank is `wild_rank`."""
        if card.is_joker:
            return JOKER_PENALTY
        if card.rank == wild_rank and self.wild_penalty is not None:
            return self.wild_penalty
        return self.face_value(card)

    def round_multiplier(self, wild_rank: int | None) -> int:
        """Double face rounds: penalties count double when jacks, queens or kings are wild."""
        return 2 if self.double_face_rounds and wild_rank in (11, 12, 13) else 1
