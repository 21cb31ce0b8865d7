"""What every bot shares: the interface, and the one-ply judgements of a hand (which the one-ply
levels play and the hard bot builds on)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from ..actions import Action
from ..cards import Card
from ..errors import RuleError, gettext_noop
from ..melds import arrange
from ..rules import Rules
from ..solver_memo import CARD_KEY, cached_discard_options, cached_going_out_cards, hand_key
from ..view import PlayerView


class Bot(Protocol):
    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


def require_turn(view: PlayerView) -> None:
    if not view.legal_actions:
        raise RuleError(gettext_noop("It is not this bot's turn."))


# A bot is handed its own seat's view on its turn: never a spectator's (no seat, no hand), and
# the discard pile holds a card at the start of every turn. These give a view's parts so.
def seat_of(view: PlayerView) -> int:
    assert view.seat is not None, "a bot plays a seat"
    return view.seat


def hand_of(view: PlayerView) -> tuple[Card, ...]:
    assert view.hand is not None, "a bot sees its own hand"
    return view.hand


def top_of(view: PlayerView) -> Card:
    assert view.top_discard is not None, "the discard pile holds a card during a turn"
    return view.top_discard


def face(card: Card) -> tuple[int, str]:
    return card.rank, card.suit


_PENALTIES: dict[tuple[object, ...], int] = {}


def least_penalty(hand: Sequence[Card], wild_rank: int, rules: Rules) -> int:
    """The least penalty `hand` (between turns) can leave, remembered per hand."""
    key = (hand_key(hand), wild_rank, rules)
    found = _PENALTIES.get(key)
    if found is None:
        if len(_PENALTIES) >= 65536:
            _PENALTIES.clear()
        found = _PENALTIES[key] = arrange(sorted(hand, key=CARD_KEY), wild_rank, rules).penalty
    return found


def takes_discard(hand: Sequence[Card], top: Card, wild_rank: int, rules: Rules) -> bool:
    """Whether hand + top, after the best discard of another face than top's, leaves less than
    the hand does now (= throwing the top card back)."""
    if cannot_help(hand, top, wild_rank, rules):
        return False
    options = cached_discard_options((*hand, top), wild_rank, rules)
    top_face = face(top)
    keep = [penalty for card, penalty in options.items() if face(card) != top_face]
    return bool(keep) and min(keep) < options[top]


def discard_order(
    hand: Sequence[Card],
    wild_rank: int,
    rules: Rules,
    barred: tuple[int, str] | None = None,
    extra_cost: Callable[[Card], int] | None = None,
) -> list[tuple[int, Card]]:
    """The cards of a hand just after drawing, best discard first, with the penalty the rest
    leaves: least penalty left, then the costliest card, then the card's order. `barred` is a
    face that may not be thrown; `extra_cost(card)` adds a price to throwing a card."""
    options = cached_discard_options(hand, wild_rank, rules)
    ranked = []
    for card in hand:
        if barred is not None and face(card) == barred:
            continue
        left = options[card] + (extra_cost(card) if extra_cost else 0)
        ranked.append((left, -rules.penalty(card, wild_rank), card))
    if not ranked:  # a hand of the barred face alone: any may go
        ranked = [(options[c], -rules.penalty(c, wild_rank), c) for c in hand]
    ranked.sort()
    return [(left, card) for left, _cost, card in ranked]


def going_out_cards(
    hand: Sequence[Card], wild_rank: int, rules: Rules, barred: tuple[int, str] | None
) -> list[Card]:
    going_out = cached_going_out_cards(hand, wild_rank, rules)
    return [c for c in going_out if barred is None or face(c) != barred]


def cannot_help(hand: Sequence[Card], top: Card, wild_rank: int, rules: Rules) -> bool:
    """A shortcut that spares the solver, giving exactly its answer when it applies: if no wild
    is in play and `top` has no card of its rank nor a suit neighbour within two ranks, `top`
    can only be deadwood, so swapping it for a card X leaves at least best(hand) - cost(X) +
    cost(top). When `top` costs at least as much as every card held, that is never less."""
    if rules.is_wild(top, wild_rank) or any(rules.is_wild(card, wild_rank) for card in hand):
        return False
    top_cost = rules.penalty(top, wild_rank)
    top_ranks = {top.rank, 14} if rules.aces_high and top.rank == 1 else {top.rank}
    for card in hand:
        if rules.penalty(card, wild_rank) > top_cost or card.rank == top.rank:
            return False
        if card.suit == top.suit:
            ranks = {card.rank, 14} if rules.aces_high and card.rank == 1 else {card.rank}
            if any(abs(a - b) <= 2 for a in ranks for b in top_ranks):
                return False
    return True


def meets(card: Card, cards: Sequence[Card], wild_rank: int, rules: Rules) -> bool:
    """Whether `card` could join a meld with `cards`: a wild, or related to one of them."""
    return rules.is_wild(card, wild_rank) or any(related(card, other, rules) for other in cards)


def related(a: Card, b: Card, rules: Rules) -> bool:
    """Whether `a` and `b` could stand in one meld without wilds: a rank, or a suit within two
    ranks."""
    if a.is_joker or b.is_joker:
        return False
    if a.rank == b.rank:
        return True
    if a.suit != b.suit:
        return False
    gap = abs(a.rank - b.rank)
    if rules.aces_high and 1 in (a.rank, b.rank):
        gap = min(gap, 14 - max(a.rank, b.rank))
    return gap <= 2
