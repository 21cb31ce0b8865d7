"""Computer players. A bot sees exactly what a human in its seat sees: a PlayerView, never the
state, so it cannot peek at other hands or the stock."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from .cards import Card
from .rules import Rules
from .state import (
    Action,
    Discard,
    Draw,
    GameState,
    GoOut,
    PlayerView,
    RuleError,
    cached_discard_options,
    gettext_noop,
)


class Bot(Protocol):
    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


def _require_turn(view: PlayerView) -> None:
    if not view.legal_actions:
        raise RuleError(gettext_noop("It is not this bot's turn."))


class RandomBot:
    """Any legal action, uniformly."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        _require_turn(view)
        return rng.choice(view.legal_actions)

    def __repr__(self) -> str:
        return "RandomBot()"


class GreedyBot:
    """Goes out when it can; takes the top discard when that lowers the penalty its hand can get
    down to, else draws from the stock; discards the card that leaves the least penalty, throwing
    the costliest card on a tie."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        _require_turn(view)
        if view.phase == "draw":
            return self._draw(view)
        return self._discard(view)

    def _draw(self, view: PlayerView) -> Action:
        seat, top = view.seat, view.top_discard
        can_take = Draw(seat, "discard") in view.legal_actions
        can_stock = Draw(seat, "stock") in view.legal_actions
        if can_take and (not can_stock or self._improves(view, top)):
            return Draw(seat, "discard")
        return Draw(seat, "stock")

    @staticmethod
    def _improves(view: PlayerView, top) -> bool:
        """Whether hand + top, after the best discard other than the top card's face, leaves
        less than the hand does now (= discarding the top card again)."""
        if _cannot_help(view.hand, top, view.wild_rank, view.rules):
            return False
        options = cached_discard_options((*view.hand, top), view.wild_rank, view.rules)
        keep = [
            penalty
            for card, penalty in options.items()
            if (card.rank, card.suit) != (top.rank, top.suit)
        ]
        return bool(keep) and min(keep) < options[top]

    def _discard(self, view: PlayerView) -> Action:
        go_outs = [action for action in view.legal_actions if isinstance(action, GoOut)]
        if go_outs:
            return max(go_outs, key=lambda a: (_cost(view.rules, a.card, view.wild_rank), a.card))
        options = cached_discard_options(view.hand, view.wild_rank, view.rules)
        discards = [action for action in view.legal_actions if isinstance(action, Discard)]
        return min(
            discards,
            key=lambda a: (
                options[a.card],
                -_cost(view.rules, a.card, view.wild_rank),
                a.card,
            ),
        )

    def __repr__(self) -> str:
        return "GreedyBot()"


def _cost(rules: Rules, card, wild_rank: int) -> int:
    return rules.penalty(card, wild_rank)


def _cannot_help(hand: Sequence[Card], top: Card, wild_rank: int, rules: Rules) -> bool:
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


BOTS: dict[str, Bot] = {"random": RandomBot(), "easy": GreedyBot()}


def get_bot(name: str) -> Bot:
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"no bot named {name!r}; choose from {', '.join(BOTS)}") from None


def simulate_game(rules: Rules, players: int, seed: str, bot_names: Sequence[str]) -> GameState:
    """A whole game between bots (one name per seat), deterministic in `seed`."""
    if len(bot_names) != players:
        raise ValueError(f"{players} players need {players} bot names, got {len(bot_names)}")
    bots = [get_bot(name) for name in bot_names]
    rng = random.Random(f"{seed}:bots")
    state = GameState.new(rules, players, seed)
    while not state.is_over:
        seat = state.to_move
        state.apply(bots[seat].choose(state.view(seat), rng))
    return state
