"""Cards to and from their JSON tokens, remembered: serialization is hot (a view per request) and
a game holds few distinct cards. The engine's JSON (actions, results, views, the state) goes
through here."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import Card

_TOKEN_OF: dict[Card, str] = {}
_CARD_OF: dict[str, Card] = {}


def token_of(card: Card) -> str:
    token = _TOKEN_OF.get(card)
    if token is None:
        token = _TOKEN_OF[card] = card.token
    return token


def tokens_of(cards: Iterable[Card]) -> list[str]:
    get = _TOKEN_OF.get
    return [get(card) or token_of(card) for card in cards]


def card_of(token: str) -> Card:
    card = _CARD_OF.get(token)
    if card is None:
        card = Card.from_token(token)
        if len(_CARD_OF) < 4096:  # junk tokens are refused by from_token; the rest are few
            _CARD_OF[token] = card
    return card


def cards_of(tokens: Iterable[str]) -> list[Card]:
    return [card_of(token) for token in tokens]


def melds_to_json(melds: Iterable[Iterable[Card]]) -> list[list[str]]:
    return [tokens_of(meld) for meld in melds]


def melds_from_json(data: Iterable[Iterable[str]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(cards_of(meld)) for meld in data)
