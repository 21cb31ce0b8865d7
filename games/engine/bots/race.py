"""The race of a two-player round, played out as solitaire: what a hand is worth when the round
ends either when this seat goes out (it scores 0 and the other seat pays its deadwood) or when
the other seat goes out first (then this seat draws once more and pays what it holds).

One-ply valuation (outlook.py) sees only the next draw; in a round of 7 to 13 cards going out
takes several, so it cannot tell a hand two draws from going out from one that is five away.
Here a hand is played through SAMPLES sequences of future stock draws (sampled from the unseen
cards, weighted by where they probably are: knowledge.sample_deal), greedily (draw, throw the
card that leaves the least penalty), for up to HORIZON turns. The other seat goes out at each of
its turns with a chance measured offline (HAZARD: medium's rate per turn of a round of n cards),
and when this seat goes out it wins what the other seat is expected to hold then (DEADWOOD). The
same sequences value every choice of one decision (common random numbers), so the noise of the
sampling mostly cancels between them.

A decision is a bounded amount of work: (choices x SAMPLES x HORIZON) solver calls at most."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card
from ..rules import Rules
from ..state import CARD_KEY, PILE_THREW, PlayerView, cached_discard_options
from .base import least_penalty
from .knowledge import Knowledge, card_weights, sample_deal

SAMPLES = 12  # draw sequences per decision
HORIZON = 8  # turns of this seat played out per sequence
BONUS_WEIGHT = 1.0  # weight of the other seat's deadwood won by going out

# Medium's chance to go out at its t-th turn (t = 1, 2, ...) of a round of n cards, against the
# hard bot (measured offline over 160 hard-vs-medium games, seeds `calib:<g>`), by n: small hands go
# out fast, large hands slowly.
HAZARD: dict[int, tuple[float, ...]] = {
    3: (
        0.11,
        0.108,
        0.105,
        0.132,
        0.118,
        0.107,
        0.096,
        0.099,
        0.089,
        0.139,
        0.145,
        0.141,
        0.108,
        0.078,
        0.095,
        0.062,
    ),
    4: (
        0.03,
        0.03,
        0.033,
        0.039,
        0.066,
        0.082,
        0.114,
        0.078,
        0.05,
        0.062,
        0.135,
        0.19,
        0.224,
        0.158,
        0.147,
        0.08,
    ),
    5: (
        0.01,
        0.009,
        0.011,
        0.014,
        0.024,
        0.051,
        0.057,
        0.062,
        0.064,
        0.065,
        0.07,
        0.077,
        0.106,
        0.121,
        0.08,
        0.056,
    ),
    6: (
        0.049,
        0.065,
        0.082,
        0.09,
        0.118,
        0.119,
        0.133,
        0.146,
        0.215,
        0.211,
        0.149,
        0.071,
        0.109,
        0.123,
        0.104,
        0.039,
    ),
    7: (
        0.016,
        0.023,
        0.053,
        0.08,
        0.091,
        0.079,
        0.103,
        0.144,
        0.137,
        0.132,
        0.134,
        0.131,
        0.106,
        0.062,
        0.137,
        0.167,
    ),
    8: (
        0.019,
        0.017,
        0.02,
        0.03,
        0.047,
        0.056,
        0.076,
        0.076,
        0.07,
        0.043,
        0.065,
        0.091,
        0.108,
        0.097,
        0.15,
        0.183,
    ),
    9: (
        0.023,
        0.032,
        0.048,
        0.057,
        0.065,
        0.109,
        0.144,
        0.167,
        0.117,
        0.068,
        0.106,
        0.131,
        0.228,
        0.175,
        0.22,
        0.182,
    ),
    10: (
        0.013,
        0.015,
        0.037,
        0.049,
        0.097,
        0.123,
        0.161,
        0.152,
        0.15,
        0.117,
        0.191,
        0.167,
        0.173,
        0.177,
        0.321,
        0.436,
    ),
    11: (
        0.007,
        0.015,
        0.032,
        0.06,
        0.085,
        0.102,
        0.135,
        0.17,
        0.188,
        0.155,
        0.112,
        0.154,
        0.122,
        0.19,
        0.262,
        0.393,
    ),
    12: (
        0.019,
        0.039,
        0.063,
        0.083,
        0.099,
        0.14,
        0.168,
        0.146,
        0.15,
        0.166,
        0.192,
        0.252,
        0.175,
        0.212,
        0.25,
        0.375,
    ),
    13: (
        0.026,
        0.036,
        0.074,
        0.105,
        0.157,
        0.215,
        0.275,
        0.284,
        0.204,
        0.198,
        0.153,
        0.219,
        0.202,
        0.25,
        0.25,
        0.25,
    ),
}
DEADWOOD: dict[int, tuple[float, ...]] = {
    3: (11.5, 8.9, 8.2, 7.3, 7.9, 7.8, 4.8, 4.1, 4.3, 3.0, 1.4, 2.7, 1.5, 2.6, 1.5, 1.0),
    4: (14.7, 10.6, 11.7, 9.3, 6.6, 6.9, 4.5, 3.6, 2.8, 1.7, 4.0, 1.9, 2.8, 1.5, 1.4, 1.1),
    5: (21.2, 17.0, 15.2, 8.9, 7.1, 7.3, 5.9, 6.2, 2.9, 2.0, 5.1, 2.6, 1.8, 1.6, 1.2, 1.8),
    6: (25.9, 23.9, 17.7, 11.7, 7.5, 7.4, 6.2, 7.9, 2.6, 3.5, 6.2, 3.0, 1.7, 2.5, 1.2, 1.5),
    7: (22.2, 18.7, 13.7, 7.9, 6.4, 5.7, 2.4, 4.2, 2.4, 2.9, 3.8, 1.6, 2.1, 2.0, 1.5, 0.9),
    8: (31.0, 16.4, 8.9, 8.3, 10.0, 5.8, 3.9, 5.9, 4.4, 5.8, 2.6, 1.6, 2.0, 2.1, 1.2, 1.3),
    9: (28.8, 15.6, 12.2, 5.0, 9.2, 10.0, 6.4, 6.5, 2.9, 4.1, 4.0, 3.1, 2.6, 1.3, 2.1, 1.4),
    10: (33.8, 13.6, 15.7, 9.2, 9.1, 8.4, 7.8, 3.1, 3.6, 4.4, 2.0, 2.6, 3.3, 2.9, 1.4, 2.5),
    11: (27.2, 26.8, 13.4, 16.5, 5.7, 11.9, 4.3, 4.7, 4.9, 3.7, 3.1, 2.4, 4.1, 2.2, 2.3, 2.0),
    12: (26.2, 15.5, 15.0, 10.5, 6.2, 6.6, 7.4, 5.7, 5.5, 4.5, 4.6, 3.6, 1.9, 2.5, 2.0, 2.5),
    13: (11.0, 14.2, 15.8, 8.2, 6.4, 7.3, 4.7, 6.5, 6.8, 3.3, 3.1, 3.6, 2.2, 0.5, 0.5, 0.5),
}


def hazard(n: int, turn: int) -> float:
    row = HAZARD.get(n) or HAZARD[max(HAZARD)]
    return row[min(turn, len(row)) - 1] if turn >= 1 else 0.0


def deadwood(n: int, turn: int) -> float:
    row = DEADWOOD.get(n) or DEADWOOD[max(DEADWOOD)]
    return row[min(max(turn, 1), len(row)) - 1]


def turns_taken(view: PlayerView, seat: int) -> int:
    """How many turns `seat` has finished this round (each ends with a card thrown)."""
    return sum(1 for who, kind, _card in view.pile_events if who == seat and kind == PILE_THREW)


class Race:
    """The draw sequences and the other seat's clock for one decision of a two-player round."""

    __slots__ = ("bonus", "hazards", "rules", "sequences", "wild")

    def __init__(
        self, view: PlayerView, knowledge: Knowledge, rng: random.Random, *, samples=SAMPLES
    ):
        self.rules, self.wild = view.rules, view.wild_rank
        other = 1 - view.seat
        weights = {other: card_weights(knowledge, other, view)}
        self.sequences = []
        for _ in range(samples):
            _hands, stock = sample_deal(knowledge, view, weights, [other], rng)
            self.sequences.append(tuple(stock[: HORIZON + 1]))
        n, done = view.hand_size, turns_taken(view, other)
        # before this seat's k-th coming draw (k = 1, 2, ...) the other seat plays turn done + k
        # (when this seat is to draw now, its own draw comes first: see stock_value)
        self.hazards = [hazard(n, done + k) for k in range(1, HORIZON + 2)]
        self.bonus = [BONUS_WEIGHT * deadwood(n, done + k) for k in range(0, HORIZON + 2)]

    def value(self, hand: Sequence[Card]) -> float:
        """The expected outcome (own penalty, less the other's when this seat goes out) of a
        hand between turns, the other seat to play next."""
        return sum(self._play(tuple(hand), seq[1:], 0) for seq in self.sequences) / len(
            self.sequences
        )

    def stock_value(self, hand: Sequence[Card]) -> float:
        """The same for a hand about to draw from the stock (its own draw first)."""
        total = 0.0
        rules, wild = self.rules, self.wild
        for seq in self.sequences:
            if not seq:
                continue
            options = cached_discard_options((*hand, seq[0]), wild, rules)
            throw = _greedy(options, rules, wild)
            if options[throw] == 0:
                total -= self.bonus[0]
                continue
            rest = list((*hand, seq[0]))
            rest.remove(throw)
            total += self._play(tuple(rest), seq[1:], 0)
        return total / len(self.sequences)

    def _play(self, hand: tuple, draws: Sequence[Card], _start: int) -> float:
        rules, wild, hazards, bonus = self.rules, self.wild, self.hazards, self.bonus
        value, alive, best = 0.0, 1.0, None
        for k, card in enumerate(draws):
            options = cached_discard_options((*hand, card), wild, rules)
            throw = _greedy(options, rules, wild)
            best = options[throw]
            q = hazards[k]
            value += alive * q * best  # the other went out: this draw was the last
            alive *= 1.0 - q
            if best == 0:
                return value - alive * bonus[k + 1]
            rest = list((*hand, card))
            rest.remove(throw)
            hand = tuple(rest)
        if best is None:
            best = least_penalty(hand, wild, rules)
        return value + alive * best


def _greedy(options: dict[Card, int], rules: Rules, wild: int) -> Card:
    """The card that leaves the least penalty, the costliest on a tie, then the highest."""
    return min(options, key=lambda c: (options[c], -rules.penalty(c, wild), CARD_KEY(c)))
