"""Hard: one ply of expectation over the unseen cards (outlook.py) for every choice, and the
next seat's answer to a discard priced on hands sampled from what it did.

- Going out always pays (0 is the least a round can cost, and waiting only gives the others
  turns); of the ways to go out it throws the card the others are least likely to want.
- Discard: of the CANDIDATES best cards by the greedy measure (penalty left), the one whose loss
  leaves the hand with the best outlook (outlook.py: the penalty expected after the next draw),
  plus the next seat's answer to it. Its hand is sampled FEED_SAMPLES times from the unseen
  cards, weighted by what it took, threw and let lie, and read against its last turn (kept by
  how well each explains it as the medium level's turn: knowledge.sample_hands). In games of
  three or more a card is charged the mean amount by which taking it would lower that hand's
  penalty (shared among the opponents). In a two-player game a card the other seat would take
  only to lower its penalty (it melds with nothing there: a cheap card for a costly one) earns
  BAIT points for each sampled hand that takes it: the taker gives up its draw from the stock,
  the card that could have completed a meld. (Charging a two-player discard for what it gives
  lost in tournaments; docs/bots.md has the current figures.)
- Draw: the top discard when the best hand it makes (after the best of the CANDIDATES discards
  of another face) has a better outlook than the hand now after the gain a stock draw is
  expected to bring.
- In its very last turn of a round only the penalty it is left with counts: it draws by exact
  expectation over the unseen cards and throws the card that leaves the least.

Budget: each choice is a bounded amount of work (at most CANDIDATES + 1 hands valued against
every unseen face, SAMPLE_POOL x FEED_SAMPLES hands read against the last turn (a solver call
each, and one cheap check per card when the seat drew from the stock) and
CANDIDATES x FEED_SAMPLES to price them), a few to a few hundred milliseconds; the same view and
random stream always give the same action. `seconds` (1 s by default, BOT_HARD_SECONDS) is a
cap only: with `time_cap` on, a choice that runs past it keeps the best candidate valued so far
(the greedy one is always valued first). That is the only way the clock can change a choice;
tests turn it off.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence

from ..actions import Action, Discard, Draw, GoOut
from ..cards import Card
from ..rules import Rules
from ..solver_memo import cached_discard_options
from ..view import PlayerView
from .base import (
    discard_order,
    face,
    hand_of,
    least_penalty,
    meets,
    require_turn,
    seat_of,
    takes_discard,
    top_of,
)
from .knowledge import knowledge_of, sample_hands
from .outlook import Outlook
from .simple import ranked_discards

CANDIDATES = 6  # discards weighed by their outlook: the best by penalty left, distinct faces
FEED_SAMPLES = 8  # hands of the next seat sampled to price what a discard gives it
FEED_WEIGHT = 1.0  # the next seat's gain against its own, divided among the opponents
FEED_WEIGHT_TWO_PLAYERS = 0.0  # the same in a two-player game (see the module's docstring)
BAIT = 6.0  # two players: points for each sampled hand that takes a card only to swap it in


class HardBot:
    def __init__(self, seconds: float = 1.0, *, time_cap: bool = True):
        self.seconds = seconds
        self.time_cap = seconds if time_cap else None
        self.last_valued = 0  # for benchmarks: the hands the last choice valued

    def __repr__(self) -> str:
        return f"HardBot(seconds={self.seconds})"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        require_turn(view)
        self.last_valued = 0
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if view.phase == "draw":
            if Draw(seat_of(view), "discard") not in legal:
                return Draw(seat_of(view), "stock")
            if Draw(seat_of(view), "stock") not in legal:
                return Draw(seat_of(view), "discard")
            return self._last_draw(view) if view.last_turns else self._draw(view)
        go_outs = [a for a in legal if isinstance(a, GoOut)]
        if go_outs:
            return self._go_out(view, go_outs)
        if view.last_turns:
            return Discard(seat_of(view), ranked_discards(view)[0][1])
        return self._discard(view, rng)

    def _out_of_time(self, started: float) -> bool:
        return self.time_cap is not None and time.perf_counter() - started > self.time_cap

    # -- going out ----------------------------------------------------------------------------
    def _go_out(self, view: PlayerView, go_outs: list[GoOut]) -> Action:
        knowledge = knowledge_of(view)
        wants = [card for seat, cards in enumerate(knowledge.took) if seat != view.seat
                 for card in cards]  # fmt: skip
        rules, wild = view.rules, view.wild_rank
        return max(
            go_outs,
            key=lambda a: (
                not meets(a.card, wants, wild, rules),
                rules.penalty(a.card, wild),
                a.card,
            ),
        )

    # -- discarding ---------------------------------------------------------------------------
    def _discard(self, view: PlayerView, rng: random.Random) -> Action:
        started = time.perf_counter()
        knowledge = knowledge_of(view)
        outlook = Outlook(view, knowledge)
        rules, wild, hand = view.rules, view.wild_rank, list(hand_of(view))
        following = (seat_of(view) + 1) % view.players
        hands = sample_hands(knowledge, view, following, FEED_SAMPLES, rng)
        two = view.players == 2
        feed = (FEED_WEIGHT_TWO_PLAYERS if two else FEED_WEIGHT) / (view.players - 1)
        bait = BAIT if two else 0.0
        scored: list[tuple[float, int, Card]] = []
        for _left, card in shortlist(ranked_discards(view)):
            if scored and self._out_of_time(started):
                break
            charge = 0.0
            for other in hands:
                gain, melds = _answer(other, card, wild, rules)
                charge += feed * gain - (bait if gain and not melds else 0.0)
            cost = outlook.value(without(hand, card)) + charge / len(hands)
            scored.append((cost, -rules.penalty(card, wild), card))
        self.last_valued = outlook.valued
        return Discard(seat_of(view), min(scored)[2])

    # -- drawing ------------------------------------------------------------------------------
    def _draw(self, view: PlayerView) -> Action:
        started = time.perf_counter()
        outlook = Outlook(view, knowledge_of(view))
        stock, take = draw_values(view, outlook, lambda: self._out_of_time(started))
        self.last_valued = outlook.valued
        return Draw(seat_of(view), "discard" if take is not None and take < stock else "stock")

    # -- the last turn of a round: exact one-ply expectation ----------------------------------
    def _last_draw(self, view: PlayerView) -> Action:
        seat = seat_of(view)
        if not takes_discard(hand_of(view), top_of(view), view.wild_rank, view.rules):
            return Draw(seat, "stock")
        stock, take = last_draw_values(view)
        assert take is not None, "a top discard worth taking leaves a card of another face"
        return Draw(seat, "discard") if stock is None or take < stock else Draw(seat, "stock")


def draw_values(
    view: PlayerView, outlook: Outlook, stop: Callable[[], bool] = lambda: False
) -> tuple[float, float | None]:
    """A draw on the outlook's scale: the stock's value (the hand's, less the gain a draw is
    expected to bring) and the top discard's (the best hand it makes after the best throw of
    another face, of the CANDIDATES; None when only cards of its face could go). Once one is
    valued, `stop()` may cut the candidates short."""
    hand, top = list(hand_of(view)), top_of(view)
    now, after = outlook.parts(hand)
    stock = outlook.value(hand) - (now - after)
    taken = [*hand, top]
    take = None
    ranked = discard_order(taken, view.wild_rank, view.rules, barred=face(top))
    for _left, card in shortlist(ranked):
        if face(card) == face(top) or (take is not None and stop()):
            break  # a hand of the top's face alone keeps the stock
        value = outlook.value(without(taken, card))
        take = value if take is None else min(take, value)
    return stock, take


def last_draw_values(view: PlayerView) -> tuple[float | None, int | None]:
    """The round's last turn, exactly: the penalty expected after a stock draw and the best
    throw (None: no card is unseen), and the least after taking the top discard and throwing a
    card of another face (None: only its face could go)."""
    hand, top, wild, rules = hand_of(view), top_of(view), view.wild_rank, view.rules
    options = cached_discard_options((*hand, top), wild, rules)
    take = min((p for card, p in options.items() if face(card) != face(top)), default=None)
    unseen = knowledge_of(view).unseen
    faces = Counter(face(card) for card in unseen)
    by_face = {face(card): card for card in unseen}
    total = sum(faces.values())
    if not total:
        return None, take
    expected = sum(
        count * min(cached_discard_options((*hand, by_face[f]), wild, rules).values())
        for f, count in sorted(faces.items())
    )
    return expected / total, take


def without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def shortlist(ranked: list[tuple[int, Card]]) -> list[tuple[int, Card]]:
    """The first CANDIDATES (penalty left, card) pairs of distinct faces."""
    seen: set[tuple[int, str]] = set()
    kept: list[tuple[int, Card]] = []
    for left, card in ranked:
        if face(card) not in seen:
            seen.add(face(card))
            kept.append((left, card))
    return kept[:CANDIDATES]


def _answer(hand: list[Card], card: Card, wild: int, rules: Rules) -> tuple[int, bool]:
    """The seat holding `hand`, offered `card`: how much taking it lowers the hand's least
    penalty (after the best discard of another face; 0: it would not take it), and whether
    the card can meld with the hand (a wild, or related to a card in it)."""
    options = cached_discard_options((*hand, card), wild, rules)
    after = min((left for c, left in options.items() if face(c) != face(card)), default=None)
    gain = 0 if after is None else max(0, least_penalty(hand, wild, rules) - after)
    return gain, meets(card, hand, wild, rules)
