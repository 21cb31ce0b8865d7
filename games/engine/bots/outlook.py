"""What a hand is worth with the draws still to come: one ply of expectation over the next card
from the stock, weighted by what the seat knows about where the unseen cards are.

A hand of n cards between turns has its penalty now, P0, and an expected penalty after one more
stock draw and the best discard, P1 = sum over the unseen faces x of p(x) * min_d P0(H + x - d).
P0 - P1 is what one draw is worth to the hand: its outs (cards that complete or extend a meld)
times how likely each comes, plus a cheaper card for a costly one. The hand's value is
P0 - LOOKAHEAD * (P0 - P1); at LOOKAHEAD 1 it is P1, the penalty expected after the next draw,
so a hand with outs is worth keeping over one a little cheaper now. (Larger weights, meant to
count the further draws of a round, lost in tournaments: above 1 the value rewards holding
costly cards, whose swap for a cheap card is a likely "gain".) A draw that lets the hand go out
is worth a bonus beyond a penalty of 0: going out ends the round on the others, who keep what
they hold. In a two-player game that is the other seat's deadwood, which grows with the hand:
the bonus is OUT_BONUS_PER_CARD points per card dealt (7.5 with 3 cards, 32.5 with 13). In games
of three or more it stays a flat OUT_BONUS (the scaled bonus is untested there). The tournament
figures are in docs/bots.md.

p(x): an unseen card is in the stock or in an opponent's hand; the opponents' hands hold
`card_counts - known cards` of the unseen cards, each card weighted as knowledge.card_weights
says (likelier where the opponent took related cards, less where it threw them), so a card an
opponent probably holds counts less as an out. With an empty stock the next draw comes from the
reshuffled pile, which is known."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from ..solver_memo import cached_discard_options
from ..view import PlayerView
from .base import face, least_penalty, meets
from .knowledge import Knowledge, card_weights

LOOKAHEAD = 1.0  # weight of the next draw's expected gain (see the module's docstring)
OUT_BONUS = 5.0  # penalty points a draw that goes out is worth beyond 0, three or more players
OUT_BONUS_PER_CARD = 2.5  # the same per card dealt, in a two-player game


def draw_odds(knowledge: Knowledge, view: PlayerView) -> list[tuple[Card, float]]:
    """One card per unseen face, with the chance that the next stock card has that face."""
    if view.stock_size == 0:
        pool, chance = list(knowledge.pile[:-1]), [1.0] * max(0, len(knowledge.pile) - 1)
    else:
        pool = list(knowledge.unseen)
        chance = [1.0] * len(pool)
        for other in range(view.players):
            if other == view.seat:
                continue
            need = max(0, view.card_counts[other] - len(knowledge.held[other]))
            if not need:
                continue
            weights = card_weights(knowledge, other, view)
            total = sum(weights)
            for i, weight in enumerate(weights):
                chance[i] -= need * weight / total
    by_face: dict[tuple[int, str], list[Any]] = {}  # [card, weight]
    for card, p in zip(pool, chance, strict=True):
        entry = by_face.setdefault(face(card), [card, 0.0])
        entry[1] += max(p, 0.01)  # a card is never certainly out of the stock
    total = sum(p for _card, p in by_face.values()) or 1.0
    return [(card, p / total) for card, p in sorted(by_face.values(), key=lambda e: face(e[0]))]


class Outlook:
    """Values of hands for one decision: the round's wild rank and rules, the draw odds."""

    __slots__ = ("_values", "lookahead", "odds", "out_bonus", "rules", "wild")

    def __init__(self, view: PlayerView, knowledge: Knowledge, lookahead: float | None = None):
        self.rules, self.wild = view.rules, view.wild_rank
        self.odds = draw_odds(knowledge, view)
        self.lookahead = LOOKAHEAD if lookahead is None else lookahead
        two = view.players == 2
        self.out_bonus = OUT_BONUS_PER_CARD * view.hand_size if two else OUT_BONUS
        self._values: dict[tuple[tuple[int, str], ...], tuple[int, float]] = {}

    def after_draw(self, hand: Sequence[Card]) -> float:
        """P1: the expected least penalty after one stock draw and the best discard (a draw
        that goes out counts -out_bonus)."""
        penalty, going_out = self.draw_parts(hand)
        return penalty - self.out_bonus * going_out

    def draw_parts(self, hand: Sequence[Card]) -> tuple[float, float]:
        """The next stock draw, in two parts: the expected least penalty after it and the best
        discard (going out counts 0), and the chance that it lets the hand go out. A card that
        cannot meld with the hand (no wild in play beyond one, no card of its rank or within two
        of it in its suit) is priced without the solver: it is thrown back, or kept in place of
        the hand's best discard (exact: a test checks it against the solver)."""
        rules, wild = self.rules, self.wild
        now = least_penalty(hand, wild, rules)
        wilds = sum(rules.is_wild(card, wild) for card in hand)
        shed = None  # the least penalty the hand leaves without its best discard
        expected = going_out = 0.0
        for card, p in self.odds:
            if wilds <= 1 and not meets(card, hand, wild, rules):
                if shed is None:
                    shed = min(cached_discard_options(hand, wild, rules).values())
                best = min(now, shed + rules.penalty(card, wild))
            else:
                best = min(cached_discard_options((*hand, card), wild, rules).values())
            expected += p * best
            going_out += 0.0 if best else p
        return expected, going_out

    def parts(self, hand: Sequence[Card]) -> tuple[int, float]:
        """(P0, P1) of a hand, remembered for this decision."""
        key = tuple(sorted(face(card) for card in hand))
        found = self._values.get(key)
        if found is None:
            now = least_penalty(hand, self.wild, self.rules)
            found = (now, self.after_draw(hand) if self.odds and hand else float(now))
            self._values[key] = found
        return found

    def value(self, hand: Sequence[Card]) -> float:
        """The hand's worth (lower is better): P0 - lookahead * (P0 - P1)."""
        now, after = self.parts(hand)
        return now - self.lookahead * (now - after)

    @property
    def valued(self) -> int:
        """How many hands this decision valued."""
        return len(self._values)
