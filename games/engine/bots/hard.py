"""Hard: determinized rollouts over samples of the unseen cards.

For a choice between a few candidate actions (both draws; the best few discards by the greedy
measure; the ways of going out), the bot deals the cards it cannot see many times over, each
deal weighted by what the opponents took, threw and let lie (knowledge.py), plays every candidate
on the same deal and the same random stream (common random numbers), lets every seat finish the
round greedily (rollout.py) up to a horizon, and keeps the candidate with the best mean of its
own penalty less the mean of the others'. So it weighs, say, keeping a half-built run against the
risk that an opponent goes out soon.

Where search adds nothing it decides exactly: going out always pays (0 is the least a round can
cost, and waiting only gives the others turns), so the search then only picks which card to go
out with; in its very last turn of a round it draws where the expected penalty is lowest (the top
discard against the mean over the unseen cards) and throws the greedy card.

Budget and determinism: the search is bounded by work, not time. `seconds` is turned into a
number of simulated turns, each weighted by the hand size its solver calls handle
(WORK_PER_SECOND, measured on the development machine, times a safety
margin); the same view, random stream and budget always give the same action. A wall-clock cap
(`time_cap`, on by default at the budget itself) stops a search on a machine slower than
expected (or busy); it is the only thing that can make the choice depend on time, and tests turn
it off.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from ..state import Action, Discard, Draw, GoOut, PlayerView, cached_discard_options
from .base import face, require_turn, takes_discard
from .knowledge import card_weights, knowledge_of, sample_deal
from .rollout import Round
from .simple import ranked_discards

# Simulated turns x hand size ** 1.5 per second, on one core of the development machine.
WORK_PER_SECOND = 200_000
WORK_MARGIN = 0.6  # plan for this share of the budget: a move's cost varies with the hand
MIN_SAMPLES = 2
MAX_SAMPLES = 5000
DISCARD_CANDIDATES = 4
HORIZON_TURNS_PER_PLAYER = 8


class HardBot:
    def __init__(self, seconds: float = 1.0, *, time_cap: bool = True):
        self.seconds = seconds
        self.work_budget = max(1, int(seconds * WORK_PER_SECOND * WORK_MARGIN))
        self.time_cap = seconds if time_cap else None
        self.last_samples = self.last_work = 0  # for benchmarks: the last search's size

    def __repr__(self) -> str:
        return f"HardBot(seconds={self.seconds})"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        require_turn(view)
        self.last_samples = 0
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if view.phase == "draw":
            if view.last_turns:
                return self._last_draw(view)
            return self._search(view, list(legal), rng)
        go_outs = _distinct([a for a in legal if isinstance(a, GoOut)])
        if go_outs:
            return go_outs[0] if len(go_outs) == 1 else self._search(view, go_outs, rng)
        ranked = [Discard(view.seat, card) for _left, card in ranked_discards(view)]
        if view.last_turns:
            return ranked[0]
        candidates = _distinct(ranked)[:DISCARD_CANDIDATES]
        return candidates[0] if len(candidates) == 1 else self._search(view, candidates, rng)

    # -- the last turn of a round: exact one-ply expectation ----------------------------------
    def _last_draw(self, view: PlayerView) -> Action:
        seat, hand, wild, rules = view.seat, view.hand, view.wild_rank, view.rules
        if Draw(seat, "stock") not in view.legal_actions:
            return Draw(seat, "discard")
        if Draw(seat, "discard") not in view.legal_actions:
            return Draw(seat, "stock")
        top = view.top_discard
        if not takes_discard(hand, top, wild, rules):
            return Draw(seat, "stock")
        options = cached_discard_options((*hand, top), wild, rules)
        take = min(p for card, p in options.items() if face(card) != face(top))
        faces = Counter(face(card) for card in knowledge_of(view).unseen)
        by_face = {face(card): card for card in knowledge_of(view).unseen}
        total = sum(faces.values())
        if not total:
            return Draw(seat, "discard")
        expected = sum(
            count * min(cached_discard_options((*hand, by_face[f]), wild, rules).values())
            for f, count in sorted(faces.items())
        )
        return Draw(seat, "discard") if take * total < expected else Draw(seat, "stock")

    # -- determinized rollouts ----------------------------------------------------------------
    def _search(self, view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
        knowledge = knowledge_of(view)
        seat, players = view.seat, view.players
        if view.last_turns:
            active = []
            other = (seat + 1) % players
            while other != view.went_out:
                active.append(other)
                other = (other + 1) % players
        else:
            active = [other for other in range(players) if other != seat]
        weights = {other: card_weights(knowledge, other, view) for other in active}
        barred = face(view.drawn_from_discard) if view.drawn_from_discard else None
        horizon = HORIZON_TURNS_PER_PLAYER * players
        totals = [0.0] * len(candidates)
        weight = view.hand_size**1.5  # a simulated turn's cost grows with the hand
        work = samples = 0
        deadline = None if self.time_cap is None else time.perf_counter() + self.time_cap
        while samples < MAX_SAMPLES:
            hands, stock = sample_deal(knowledge, view, weights, active, rng)
            deal = Round(
                view.rules, view.wild_rank, hands, stock, knowledge.pile, seat, view.went_out,
                barred,
            )  # fmt: skip
            stream = rng.getrandbits(64)
            values = []
            for action in candidates:
                value, turns = _play_candidate(deal, action, random.Random(stream), horizon)
                values.append(value)
                work += (turns + 1) * weight  # + 1: the copy and the evaluation
                if samples and deadline is not None and time.perf_counter() > deadline:
                    break
            if len(values) < len(candidates):
                break  # out of time: the unfinished deal is not counted
            totals = [total + value for total, value in zip(totals, values, strict=True)]
            samples += 1
            if samples >= MIN_SAMPLES and work >= self.work_budget:
                break
        self.last_samples, self.last_work = samples, work
        best = min(range(len(candidates)), key=lambda i: (totals[i], i))
        return candidates[best]


def _play_candidate(
    deal: Round, action: Action, rng: random.Random, horizon: int
) -> tuple[float, int]:
    """Play `action` on a copy of `deal`, then the rest greedily: the mover's penalty less the
    others' mean, and the turns simulated."""
    round_ = deal.copy()
    seat = round_.to_move
    turns = 1
    if isinstance(action, Draw):
        round_.draw(action.source, rng)
        over = round_.play_discard()
    else:
        over = round_.discard(action.card, go_out=isinstance(action, GoOut))
    if not over:
        turns += round_.play_out(rng, horizon)
    penalties = round_.penalties()
    others = [p for other, p in enumerate(penalties) if other != seat]
    return penalties[seat] - sum(others) / max(1, len(others)), turns


def _distinct(actions: list[Action]) -> list[Action]:
    """One action per face of card (two copies of a card play alike), in the given order."""
    seen, kept = set(), []
    for action in actions:
        key = (type(action), face(action.card))
        if key not in seen:
            seen.add(key)
            kept.append(action)
    return kept
