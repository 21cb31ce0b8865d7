"""Cards and decks. Every physical card has an identity: with two decks there are two 7 of hearts,
told apart by `copy`. Ranks are 1 (ace) .. 13 (king); a joker has rank 0 and suit "J"."""

from __future__ import annotations

import random
from dataclasses import dataclass

SUITS = "SHDC"
JOKER_RANK = 0
JOKER_SUIT = "J"
RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}
LABEL_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    rank: int
    suit: str
    copy: int = 0

    def __post_init__(self) -> None:
        if self.suit == JOKER_SUIT:
            if self.rank != JOKER_RANK:
                raise ValueError("a joker has no rank")
        elif self.suit not in SUITS or not 1 <= self.rank <= 13:
            raise ValueError(f"no such card: rank {self.rank}, suit {self.suit!r}")

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER_SUIT

    @property
    def face(self) -> str:
        """The card as printed, without its copy number: '10H', 'AS', 'JK'."""
        if self.is_joker:
            return "JK"
        return RANK_LABELS.get(self.rank, str(self.rank)) + self.suit

    @property
    def token(self) -> str:
        """A unique, stable id for serialization: the face, plus '.n' for the n-th copy."""
        return self.face if self.copy == 0 else f"{self.face}.{self.copy}"

    @classmethod
    def from_token(cls, token: str) -> Card:
        face, _, copy = token.partition(".")
        card = parse_card(face)
        return cls(card.rank, card.suit, int(copy) if copy else 0)

    def __str__(self) -> str:
        return self.face

    def __repr__(self) -> str:
        return f"Card({self.token})"


def parse_card(text: str) -> Card:
    text = text.strip().upper()
    if text in ("JK", "JOKER"):
        return Card(JOKER_RANK, JOKER_SUIT)
    if len(text) < 2:
        raise ValueError(f"not a card: {text!r}")
    label, suit = text[:-1], text[-1]
    if label in LABEL_RANKS:
        rank = LABEL_RANKS[label]
    elif label.isdigit() and 2 <= int(label) <= 10:
        rank = int(label)
    else:
        raise ValueError(f"not a card: {text!r}")
    return Card(rank, suit)


def parse_cards(text: str) -> list[Card]:
    """Parse 'AS 10H JK 10H'. A face named twice becomes two distinct cards (copy 0, then 1)."""
    seen: dict[tuple[int, str], int] = {}
    cards = []
    for word in text.replace(",", " ").split():
        card = parse_card(word)
        key = (card.rank, card.suit)
        copy = seen.get(key, 0)
        seen[key] = copy + 1
        cards.append(Card(card.rank, card.suit, copy))
    return cards


def make_deck(decks: int = 1, jokers: bool = False) -> list[Card]:
    """All the physical cards of `decks` decks, in a fixed order; jokers are 2 per deck."""
    cards = [
        Card(rank, suit, copy) for copy in range(decks) for suit in SUITS for rank in range(1, 14)
    ]
    if jokers:
        cards += [Card(JOKER_RANK, JOKER_SUIT, copy) for copy in range(2 * decks)]
    return cards


def shuffled(cards: list[Card], seed: str) -> list[Card]:
    """A shuffle fully determined by `seed` (a string, so it is stable across Python runs)."""
    cards = list(cards)
    random.Random(seed).shuffle(cards)
    return cards
