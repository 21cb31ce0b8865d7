"""The one-ply levels: random (any legal action), easy and medium."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..actions import Action, Discard, Draw, GoOut
from ..cards import Card
from ..rules import Rules
from ..view import PILE_THREW, PILE_TOOK, PlayerView
from .base import discard_order, hand_of, meets, require_turn, seat_of, takes_discard, top_of


class RandomBot:
    """Any legal action, uniformly."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        require_turn(view)
        return rng.choice(view.legal_actions)

    def __repr__(self) -> str:
        return "RandomBot()"


def choose_draw(view: PlayerView) -> Action:
    """Takes the top discard when that lowers the penalty the hand can get down to (or the
    stock cannot be drawn), else draws from the stock."""
    seat = seat_of(view)
    can_take = Draw(seat, "discard") in view.legal_actions
    can_stock = Draw(seat, "stock") in view.legal_actions
    if can_take and (
        not can_stock or takes_discard(hand_of(view), top_of(view), view.wild_rank, view.rules)
    ):
        return Draw(seat, "discard")
    return Draw(seat, "stock")


def best_going_out(view: PlayerView) -> GoOut | None:
    """Going out when it can, throwing the costliest card that lets it."""
    go_outs = [action for action in view.legal_actions if isinstance(action, GoOut)]
    if not go_outs:
        return None
    return max(go_outs, key=lambda a: (view.rules.penalty(a.card, view.wild_rank), a.card))


def ranked_discards(
    view: PlayerView, extra_cost: Callable[[Card], int] | None = None
) -> list[tuple[int, Card]]:
    """The legal discards, best first (see base.discard_order)."""
    legal = {a.card for a in view.legal_actions if isinstance(a, Discard)}
    ranked = discard_order(hand_of(view), view.wild_rank, view.rules, extra_cost=extra_cost)
    return [(left, card) for left, card in ranked if card in legal]


class MediumBot:
    """Medium: greedy one ply. Goes out when it can; takes the top discard only when that
    lowers its penalty; throws the card that leaves the least penalty, the costliest on a tie,
    and pays FEED_COST penalty points to avoid throwing the next player a card related to one
    it was seen taking from the pile this round (or a wild)."""

    FEED_COST = 3

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        require_turn(view)
        if view.phase == "draw":
            return choose_draw(view)
        go_out = best_going_out(view)
        if go_out is not None:
            return go_out
        wants = next_player_wants(view)
        wild, rules = view.wild_rank, view.rules
        ranked = ranked_discards(
            view, extra_cost=lambda card: self.feed_cost(card, wants, wild, rules)
        )
        return Discard(seat_of(view), ranked[0][1])

    @classmethod
    def feed_cost(cls, card: Card, wants: Sequence[Card], wild_rank: int, rules: Rules) -> int:
        """What this level adds to the penalty a throw leaves when the card could meld with
        what the next seat wants (also how hard reads a past throw, knowledge.explains)."""
        return cls.FEED_COST if meets(card, wants, wild_rank, rules) else 0

    def __repr__(self) -> str:
        return "MediumBot()"


def next_player_wants(view: PlayerView) -> list[Card]:
    """The cards the next seat took from the pile this round and has not thrown since."""
    following = (seat_of(view) + 1) % view.players
    held: list[Card] = []
    for seat, kind, card in view.pile_events:
        if seat != following:
            continue
        if kind == PILE_TOOK:
            held.append(card)
        elif kind == PILE_THREW and card in held:
            held.remove(card)
    return held


class EasyBot:
    """Easy: makes the obvious melds (goes out when it can, takes a discard that helps), but a
    third of the time throws some other card than the best one: a card it should keep."""

    SLIP = 1 / 3

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        require_turn(view)
        if view.phase == "draw":
            return choose_draw(view)
        go_out = best_going_out(view)
        if go_out is not None:
            return go_out
        ranked = ranked_discards(view)
        if len(ranked) > 1 and rng.random() < self.SLIP:
            return Discard(seat_of(view), rng.choice(ranked[1:])[1])
        return Discard(seat_of(view), ranked[0][1])

    def __repr__(self) -> str:
        return "EasyBot()"
