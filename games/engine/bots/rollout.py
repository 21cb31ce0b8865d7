"""A bare round of Three Thirteen for the hard bot's rollouts: hands, stock and pile as lists,
every seat playing the greedy policy (base.py) to the end of the round or a horizon. Lighter
than the game's state machine (no records, no views, no lay-offs); seeded by the caller."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card
from ..rules import Rules
from .base import discard_order, face, going_out_cards, least_penalty, takes_discard


class Round:
    __slots__ = ("barred", "hands", "pile", "players", "rules", "stock", "to_move", "went_out")
    __slots__ += ("wild",)

    def __init__(
        self,
        rules: Rules,
        wild: int,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        pile: Sequence[Card],
        to_move: int,
        went_out: int | None,
        barred: tuple[int, str] | None = None,
    ):
        self.rules, self.wild = rules, wild
        self.players = len(hands)
        self.hands = [list(hand) for hand in hands]
        self.stock = list(stock)
        self.pile = list(pile)
        self.to_move, self.went_out, self.barred = to_move, went_out, barred

    def copy(self) -> Round:
        return Round(
            self.rules, self.wild, self.hands, self.stock, self.pile, self.to_move,
            self.went_out, self.barred,
        )  # fmt: skip

    # -- the moves ---------------------------------------------------------------------------
    def can_draw_stock(self) -> bool:
        return bool(self.stock) or len(self.pile) > 1

    def draw(self, source: str, rng: random.Random) -> None:
        hand = self.hands[self.to_move]
        if source == "discard":
            card = self.pile.pop()
            self.barred = face(card)
        else:
            if not self.stock:
                self.stock = self.pile[:-1]
                self.pile = self.pile[-1:]
                rng.shuffle(self.stock)
            card = self.stock.pop()
            self.barred = None
        hand.append(card)

    def discard(self, card: Card, go_out: bool) -> bool:
        """Throw `card`; True when the round is over."""
        seat = self.to_move
        self.hands[seat].remove(card)
        self.pile.append(card)
        self.barred = None
        if go_out:
            self.went_out = seat
        self.to_move = (seat + 1) % self.players
        return self.went_out is not None and self.to_move == self.went_out

    # -- the greedy policy -------------------------------------------------------------------
    def play_draw(self, rng: random.Random) -> None:
        hand = self.hands[self.to_move]
        take = bool(self.pile) and (
            not self.can_draw_stock() or takes_discard(hand, self.pile[-1], self.wild, self.rules)
        )
        self.draw("discard" if take else "stock", rng)

    def play_discard(self) -> bool:
        hand = self.hands[self.to_move]
        if self.went_out is None:
            outs = going_out_cards(hand, self.wild, self.rules, self.barred)
            if outs:
                card = max(outs, key=lambda c: (self.rules.penalty(c, self.wild), c))
                return self.discard(card, go_out=True)
        best = discard_order(hand, self.wild, self.rules, self.barred)[0][1]
        return self.discard(best, go_out=False)

    def play_out(self, rng: random.Random, horizon: int) -> int:
        """Play greedy turns until the round ends or `horizon` turns were played; the number of
        turns played."""
        turns = 0
        while turns < horizon:
            if not self.pile and not self.can_draw_stock():
                break
            self.play_draw(rng)
            turns += 1
            if self.play_discard():
                break
        return turns

    def penalties(self) -> list[int]:
        """Each hand's least penalty as it stands (0 for the seat that went out)."""
        return [
            0 if seat == self.went_out else least_penalty(hand, self.wild, self.rules)
            for seat, hand in enumerate(self.hands)
        ]
