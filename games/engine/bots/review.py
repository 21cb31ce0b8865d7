"""A game's review: each of a seat's decisions set beside the hard level's choice from the same
view, with what it cost in expected penalty points.

A decision is a draw (the stock or the top discard) or a throw (a discard, or going out with
it). Every option is priced on the hard level's scale (outlook.py): a hand's value is the
penalty it expects after its next stock draw and best discard, and going out is worth
`-out_bonus` (going out ends the round on the others; hard always goes out), and not going out
when it could, no better than a penalty of 0. A draw from the
stock is worth what the hand is worth less the gain a draw is expected to bring; taking the top
discard, what the best hand it makes is worth after the best throw of another face. In a
round's last turns (someone went out) only the penalty a seat is left with counts: a throw is
worth the least penalty of the rest, a draw its exact expectation over the unseen cards.

The cost of a choice is its value less the best option's value (never below 0): "taking the 7
of hearts cost about 4 points". A choice with one legal option is forced and not judged. Like a
bot, the review reads only the seat's `PlayerView` at each decision, so it knows nothing the
player did not; and like the hard bot it weighs only the CANDIDATES best throws by penalty left
(plus the one chosen). Deterministic: no random stream is used."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..actions import Action, Discard, Draw, GoOut
from ..cards import Card
from ..rules import Rules
from ..state import GameState
from ..view import PlayerView
from .base import discard_order, face, hand_of, least_penalty, top_of
from .hard import draw_values, last_draw_values, shortlist, without
from .knowledge import knowledge_of
from .outlook import Outlook

ACCURATE_WITHIN = 1.0  # a decision within this many points of the best counts as accurate


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged choice of a seat."""

    action_index: int  # the move's place in the game's log
    round_index: int
    chosen: Action
    best: Action
    cost: float  # expected penalty points the choice gave up against the best (>= 0)
    hand: tuple[Card, ...]  # the seat's own hand when it chose
    top: Card | None  # the top discard it was offered (a draw)

    @property
    def accurate(self) -> bool:
        return self.cost < ACCURATE_WITHIN

    def to_dict(self) -> dict[str, Any]:
        return {
            "i": self.action_index,
            "chosen": self.chosen.to_dict(),
            "best": self.best.to_dict(),
            "cost": round(self.cost, 1),
            "hand": [card.token for card in self.hand],
            "top": self.top.token if self.top else None,
        }


@dataclass(frozen=True, slots=True)
class RoundReview:
    """A seat's judged decisions in one round, once the round has ended."""

    seat: int
    round_index: int
    decisions: tuple[Decision, ...]

    @property
    def accurate(self) -> int:
        return sum(decision.accurate for decision in self.decisions)

    @property
    def lost(self) -> float:
        return sum(decision.cost for decision in self.decisions)


def judge(view: PlayerView, chosen: Action) -> Decision | None:
    """`chosen` (legal in `view`, the seat's view when it chose) beside the best option; None
    for a forced choice."""
    legal = view.legal_actions
    if len(legal) < 2 or chosen not in legal:
        return None
    if view.phase == "draw":
        values = _draw_values(view)
        top = top_of(view)
    else:
        values = _throw_values(view, chosen)
        top = None
    best = min(values, key=lambda action: (values[action], _order(action, view)))
    return Decision(
        action_index=-1,
        round_index=view.round_index,
        chosen=chosen,
        best=best,
        cost=max(0.0, values[_priced(chosen, values)] - values[best]),
        hand=hand_of(view),
        top=top,
    )


def review(
    rules: Rules,
    players: int,
    seed: str,
    moves: Iterable[tuple[Action, bool]],
    seats: Iterable[int],
    rounds: Iterable[int],
) -> Iterator[RoundReview]:
    """Replays a game from its seed and moves ((action, played by a bot)), judging the
    decisions of `seats` in `rounds` that a bot did not play (autopilot), and yields each
    seat's RoundReview as each of those rounds ends. Lazy: a caller that stops taking reviews
    stops the work."""
    seats, rounds = set(seats), set(rounds)
    state = GameState.new(rules, players, seed)
    judged: dict[int, list[Decision]] = {seat: [] for seat in seats}
    for index, (action, by_bot) in enumerate(moves):
        round_index = state.round_index
        if round_index in rounds and action.seat in seats and not by_bot:
            decision = judge(state.view(action.seat), action)
            if decision is not None:
                judged[action.seat].append(replace(decision, action_index=index))
        record = state.apply(action)
        if record.round_ended and round_index in rounds:
            for seat in sorted(seats):
                yield RoundReview(seat, round_index, tuple(judged[seat]))
                judged[seat] = []


def _order(action: Action, view: PlayerView) -> tuple[Any, ...]:
    """Ties between options of one value: going out first, then the stock, then the
    costliest card."""
    if isinstance(action, Draw):
        return (1, action.source != "stock")
    card_cost = -view.rules.penalty(action.card, view.wild_rank)
    return (0 if isinstance(action, GoOut) else 2, card_cost, action.card)


def _priced(chosen: Action, values: dict[Action, float]) -> Action:
    """The option priced for `chosen`: itself, or a card of its face (one face, one value)."""
    if chosen in values:
        return chosen
    assert isinstance(chosen, Discard), "every draw and going out is priced"
    return next(a for a in values if isinstance(a, Discard) and face(a.card) == face(chosen.card))


def _draw_values(view: PlayerView) -> dict[Action, float]:
    """The stock and the top discard on the outlook's scale, as the hard level draws; in the
    round's last turns, the penalty left, exactly. A top discard of which only its own face
    could go would be thrown back: worth the stock's value, or the hand's penalty now."""
    seat = view.seat
    assert seat is not None, "a seat's own view"
    stock: float
    take: float | None
    if view.last_turns:
        now = float(least_penalty(hand_of(view), view.wild_rank, view.rules))
        exact_stock, take = last_draw_values(view)
        stock = now if exact_stock is None else exact_stock
        take = now if take is None else take
    else:
        stock, take = draw_values(view, Outlook(view, knowledge_of(view)))
        take = stock if take is None else take
    values = {Draw(seat, "stock"): stock, Draw(seat, "discard"): take}
    return {action: value for action, value in values.items() if action in view.legal_actions}


def _throw_values(view: PlayerView, chosen: Action) -> dict[Action, float]:
    """Going out and the CANDIDATES best discards (distinct faces; and the chosen card)."""
    rules, wild, hand = view.rules, view.wild_rank, list(hand_of(view))
    legal = view.legal_actions
    go_outs = [action for action in legal if isinstance(action, GoOut)]
    discards = [action for action in legal if isinstance(action, Discard)]
    allowed = {face(action.card) for action in discards}
    ranked = [(left, c) for left, c in discard_order(hand, wild, rules) if face(c) in allowed]
    candidates = [card for _left, card in shortlist(ranked)]
    if isinstance(chosen, Discard) and face(chosen.card) not in {face(c) for c in candidates}:
        candidates.append(chosen.card)
    if view.last_turns:

        def worth(card: Card) -> float:
            return float(least_penalty(without(hand, card), wild, rules))

        out = 0.0
    else:
        outlook = Outlook(view, knowledge_of(view))

        def worth(card: Card) -> float:
            return outlook.value(without(hand, card))

        out = -outlook.out_bonus
    values: dict[Action, float] = {action: out for action in go_outs}
    # A seat that could go out and does not gives up the bonus for sure: its throw is worth no
    # better than a penalty of 0 (in last turns the least penalty is that already).
    floor = 0.0 if go_outs else float("-inf")
    by_face = {face(action.card): action for action in discards}
    for card in candidates:
        values[by_face[face(card)]] = max(floor, worth(card))
    return values
