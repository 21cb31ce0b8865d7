"""A game's review: each of a seat's decisions set beside the hard level's choice from the same
view, with what it was expected to cost in the seat's own penalty points.

A decision is a draw (the stock or the top discard) or a throw (a discard, or going out with
it). Every option is valued as the hard level values it (outlook.py): by the penalty the hand
can expect after its next stock draw and best discard. A draw from the stock is worth what the
hand is worth less the gain a draw is expected to bring; taking the top discard, what the best
hand it makes is worth after the best throw of another face. In a round's last turns (someone
went out) the penalty left is exact: a throw is worth the least penalty of the rest, a draw its
exact expectation over the unseen cards.

The hard bot's choice is the best option on the hard level's own scale, where going out (and a
draw that may go out) is also worth a bonus: the round ends on the others, who keep what they
hold. The hard level plays it in nearly all of its decisions (docs/bots.md). The price is in
the seat's own points, without that bonus, which is no penalty of the seat's: each option is
worth the penalty the seat can expect, at least 0 (no round costs less) and at most the least
penalty the hand can hold once it is taken (`bound`: the hand can keep that to the round's end,
drawing from the stock and throwing that card back), times the round's multiplier. The cost of
a choice is its worth less the hard bot's choice's (never below 0), so never more than its
bound. A round's points given up (`lost`) are its decisions' costs added up (`expected`), but
never more than the penalty the seat ended the round with: no play scores below 0, and what
the choices were expected to cost beyond that, the cards made up for.

Passing up going out (before the round's last turns) is never accurate, whatever it cost in the
seat's own points: going out ends the round on the others. A choice with one legal option is
forced and not judged. Like a bot, the review reads only the seat's `PlayerView` at each
decision, so it knows nothing the player did not; and like the hard bot it weighs only the
CANDIDATES best throws by penalty left (plus the one chosen). Deterministic: no random stream
is used."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..actions import Action, Discard, Draw, GoOut
from ..cards import Card
from ..rules import Rules
from ..solver_memo import cached_discard_options
from ..state import GameState
from ..view import PlayerView
from .base import discard_order, face, hand_of, least_penalty, top_of
from .hard import draw_values, last_draw_values, shortlist, without
from .knowledge import Knowledge, knowledge_of
from .outlook import Outlook

ACCURATE_WITHIN = 1.0  # a decision within this many points of the best counts as accurate


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged choice of a seat."""

    action_index: int  # the move's place in the game's log
    round_index: int
    chosen: Action
    best: Action
    cost: float  # the seat's expected penalty points the choice gave up against the best (>= 0)
    bound: float  # the most it could cost: the least penalty the hand can keep after the choice
    passed_out: bool  # it could have gone out (before the round's last turns) and did not
    hand: tuple[Card, ...]  # the seat's own hand when it chose
    top: Card | None  # the top discard it was offered (a draw)

    @property
    def accurate(self) -> bool:
        return self.cost < ACCURATE_WITHIN and not self.passed_out

    def to_dict(self) -> dict[str, Any]:
        return {
            "i": self.action_index,
            "chosen": self.chosen.to_dict(),
            "best": self.best.to_dict(),
            "cost": round(self.cost, 1),
            "bound": round(self.bound, 1),
            "out": self.passed_out,
            "hand": [card.token for card in self.hand],
            "top": self.top.token if self.top else None,
        }


@dataclass(frozen=True, slots=True)
class RoundReview:
    """A seat's judged decisions in one round, once the round has ended, and its penalty."""

    seat: int
    round_index: int
    decisions: tuple[Decision, ...]
    penalty: int  # what the seat scored in the round

    @property
    def accurate(self) -> int:
        return sum(decision.accurate for decision in self.decisions)

    @property
    def expected(self) -> float:
        """What the choices were expected to cost: their costs added up."""
        return sum(decision.cost for decision in self.decisions)

    @property
    def lost(self) -> float:
        """The points given up: the expected cost, at most the penalty the round ended with."""
        return min(self.expected, float(self.penalty))


def judge(view: PlayerView, chosen: Action) -> Decision | None:
    """`chosen` (legal in `view`, the seat's view when it chose) beside the hard level's
    choice; None for a forced choice."""
    legal = view.legal_actions
    if len(legal) < 2 or chosen not in legal:
        return None
    pricer = _draw_values if view.phase == "draw" else _throw_values
    outlook = None if view.last_turns else _Outlook(view, knowledge_of(view))
    hard, bounds = pricer(view, chosen, outlook)
    own = hard  # the round's last turns: the penalty left, on both scales
    if outlook is not None:
        outlook.own = True
        own, _bounds = pricer(view, chosen, outlook)
    times = view.rules.round_multiplier(view.wild_rank)
    worth = {a: times * min(max(0.0, v), bounds[a]) for a, v in own.items()}
    best = min(hard, key=lambda action: (hard[action], _order(action, view)))
    priced = _priced(chosen, worth)
    return Decision(
        action_index=-1,
        round_index=view.round_index,
        chosen=chosen,
        best=best,
        cost=max(0.0, worth[priced] - worth[best]),
        bound=times * bounds[priced],
        passed_out=isinstance(best, GoOut)
        and not isinstance(chosen, GoOut)
        and not view.last_turns,
        hand=hand_of(view),
        top=top_of(view) if view.phase == "draw" else None,
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
            penalties = state.round_results[-1].penalties
            for seat in sorted(seats):
                yield RoundReview(seat, round_index, tuple(judged[seat]), penalties[seat])
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


class _Outlook(Outlook):
    """The hard level's outlook on two scales from one pass over the next draw: its own (a draw
    that goes out is worth the going-out bonus), to choose as it does, and with `own` set the
    seat's own penalty points (going out counts 0), to price."""

    __slots__ = ("_drawn", "own")

    def __init__(self, view: PlayerView, knowledge: Knowledge):
        super().__init__(view, knowledge)
        self._drawn: dict[tuple[tuple[int, str], ...], tuple[int, float, float]] = {}
        self.own = False

    def parts(self, hand: Sequence[Card]) -> tuple[int, float]:
        key = tuple(sorted(face(card) for card in hand))
        found = self._drawn.get(key)
        if found is None:
            now = least_penalty(hand, self.wild, self.rules)
            after, going_out = self.draw_parts(hand) if self.odds and hand else (now, 0.0)
            found = self._drawn[key] = (now, after, going_out)
        now, after, going_out = found
        return now, after - (0.0 if self.own else self.out_bonus * going_out)


Priced = tuple[dict[Action, float], dict[Action, float]]  # each option's value, and its bound


def _draw_values(view: PlayerView, _chosen: Action, outlook: _Outlook | None) -> Priced:
    """The stock and the top discard on the outlook's scale, as the hard level draws (no
    outlook: the round's last turns, the penalty left, exactly). A top discard of which only its
    own face could go would be thrown back: worth the stock's value, or the hand's penalty now.
    Bounds: the hand's penalty now (the stock's card can go straight back), and the least that
    taking the top and throwing another face leaves."""
    seat = view.seat
    assert seat is not None, "a seat's own view"
    hand, top, wild, rules = hand_of(view), top_of(view), view.wild_rank, view.rules
    now = float(least_penalty(hand, wild, rules))
    options = cached_discard_options((*hand, top), wild, rules)
    kept = [left for card, left in options.items() if face(card) != face(top)]
    stock: float
    take: float | None
    if outlook is None:
        exact_stock, take = last_draw_values(view)
        stock = now if exact_stock is None else exact_stock
        take = now if take is None else take
    else:
        stock, take = draw_values(view, outlook)
        take = stock if take is None else take
    values = {Draw(seat, "stock"): stock, Draw(seat, "discard"): take}
    bounds = {Draw(seat, "stock"): now, Draw(seat, "discard"): float(min(kept, default=now))}
    legal = view.legal_actions
    return (
        {action: value for action, value in values.items() if action in legal},
        {action: bound for action, bound in bounds.items() if action in legal},
    )


def _throw_values(view: PlayerView, chosen: Action, outlook: _Outlook | None) -> Priced:
    """Going out and the CANDIDATES best discards (distinct faces; and the chosen card), each
    bounded by the penalty the rest of the hand holds. On the hard level's scale going out is
    worth -out_bonus, and a throw that does not go out when it could no better than 0."""
    rules, wild, hand = view.rules, view.wild_rank, list(hand_of(view))
    legal = view.legal_actions
    go_outs = [action for action in legal if isinstance(action, GoOut)]
    discards = [action for action in legal if isinstance(action, Discard)]
    allowed = {face(action.card) for action in discards}
    ranked = [(left, c) for left, c in discard_order(hand, wild, rules) if face(c) in allowed]
    candidates = [card for _left, card in shortlist(ranked)]
    if isinstance(chosen, Discard) and face(chosen.card) not in {face(c) for c in candidates}:
        candidates.append(chosen.card)
    out = 0.0 if outlook is None or outlook.own else -outlook.out_bonus
    floor = 0.0 if go_outs else float("-inf")
    values: dict[Action, float] = {action: out for action in go_outs}
    bounds: dict[Action, float] = {action: 0.0 for action in go_outs}
    by_face = {face(action.card): action for action in discards}
    for card in candidates:
        action, rest = by_face[face(card)], without(hand, card)
        left = float(least_penalty(rest, wild, rules))
        values[action] = max(floor, left if outlook is None else outlook.value(rest))
        bounds[action] = left
    return values, bounds
