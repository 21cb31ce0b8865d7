"""What a seat may see: the PlayerView the engine hands each player (and spectators), and the
pile log it carries, the public history of this round's discard pile."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import Card
from .results import RoundResult
from .rules import Rules
from .tokens import card_of, melds_to_json, token_of, tokens_of

# What everyone at the table saw happen to the discard pile this round, as (seat, kind, card):
# "turned" (seat None) the card turned up at the deal, "took" a draw from the pile, "threw" a
# discard (going out included), "reshuffled" (seat None, the card left on top) when the pile
# below its top became the new stock. A player may keep this log by watching; bots read it.
PILE_TURNED, PILE_TOOK, PILE_THREW, PILE_RESHUFFLED = "turned", "took", "threw", "reshuffled"
PileEvent = tuple[int | None, str, Card]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Exactly what `seat` may see (None: a spectator): never another hand of the current round,
    nor the stock. Of the discard pile, its top card and the round's pile log (`pile_events`):
    the cards everyone at the table saw turned up, taken and thrown this round, in order, which
    a player could have noted by watching. A card drawn from the stock is in no log."""

    seat: int | None
    rules: Rules
    players: int
    round_index: int
    round_count: int
    hand_size: int
    wild_rank: int
    dealer: int
    to_move: int | None
    phase: str
    hand: tuple[Card, ...] | None
    top_discard: Card | None
    stock_size: int
    card_counts: tuple[int, ...]
    shown_melds: tuple[tuple[tuple[Card, ...], ...], ...]
    went_out: int | None
    last_turns: bool
    drawn_from_discard: Card | None
    scores: tuple[tuple[int, ...], ...]  # per finished round, per seat (after multiplier)
    round_results: tuple[RoundResult, ...]  # finished rounds, revealed at their end
    totals: tuple[int, ...]
    is_over: bool
    winners: tuple[int, ...]
    legal_actions: tuple[Action, ...] = field(default=())
    pile_events: tuple[PileEvent, ...] = field(default=())  # this round's, oldest first

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_move

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "round_index": self.round_index,
            "round_count": self.round_count,
            "hand_size": self.hand_size,
            "wild_rank": self.wild_rank,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "hand": None if self.hand is None else tokens_of(self.hand),
            "top_discard": None if self.top_discard is None else token_of(self.top_discard),
            "stock_size": self.stock_size,
            "card_counts": list(self.card_counts),
            "shown_melds": [melds_to_json(melds) for melds in self.shown_melds],
            "went_out": self.went_out,
            "last_turns": self.last_turns,
            "drawn_from_discard": (
                None if self.drawn_from_discard is None else token_of(self.drawn_from_discard)
            ),
            "scores": [list(round_scores) for round_scores in self.scores],
            "round_results": [result.to_dict() for result in self.round_results],
            "totals": list(self.totals),
            "is_over": self.is_over,
            "winners": list(self.winners),
            "legal_actions": [action.to_dict() for action in self.legal_actions],
            "pile_events": pile_events_to_json(self.pile_events),
        }


def pile_events_to_json(events: Iterable[PileEvent]) -> list[list[Any]]:
    return [[seat, kind, token_of(card)] for seat, kind, card in events]


def pile_events_from_json(data: Iterable[Sequence[Any]]) -> list[PileEvent]:
    return [(seat, kind, card_of(token)) for seat, kind, token in data]
