"""The rules of Three Thirteen as plain Python: nothing under this package imports Django.

A game is fully determined by (rules, number of players, seed, actions)."""

from .cards import Card, make_deck, parse_card, parse_cards
from .rules import Rules

__all__ = ["Card", "Rules", "make_deck", "parse_card", "parse_cards"]
