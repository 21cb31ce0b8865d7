"""What a seat can infer from its view about the cards it cannot see, and hands sampled to fit.

From the pile log (PlayerView.pile_events) a seat knows which cards lie in the discard pile,
which cards each opponent took from it and still holds, and which faces each opponent threw or
passed over. The rest of the deck is unseen: it is in the stock or in the opponents' hands.
Sampled hands put the known cards where they are, then deal the unseen cards weighted by what
each opponent did: cards related (same rank, or suit neighbours) to what it took are likelier in
its hand, cards related to what it threw or let pass are less likely; and of those, the hands
that explain its last turn as the medium level's are kept first (sample_hands)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ..cards import Card, make_deck
from ..solver_memo import cached_discard_options, cached_going_out_cards
from ..view import PILE_RESHUFFLED, PILE_THREW, PILE_TOOK, PILE_TURNED, PlayerView
from .base import discard_order, face, hand_of, related, seat_of, takes_discard
from .simple import MediumBot

TOOK_WEIGHT = 2.0  # per related card taken
THREW_WEIGHT = 0.6  # per related card thrown
PASSED_WEIGHT = 0.85  # per related top card left lying (drew from the stock instead)
SAMPLE_POOL = 12  # sample_hands: hands sampled per hand kept
OFF_ORDER = 0.05  # sample_hands: a last throw of least penalty, yet not the medium level's pick


@dataclass(frozen=True, slots=True)
class LastTurn:
    """A seat's last turn of the round, as the pile log shows it."""

    passed: Card | None  # the top card it let lie to draw from the stock (None: it took)
    took: Card | None  # the card it took from the pile
    threw: Card
    wants: tuple[Card, ...]  # what the next seat had taken and still held when it threw


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    unseen: tuple[Card, ...]  # sorted
    pile: tuple[Card, ...]  # the discard pile as far as known, top last
    held: tuple[tuple[Card, ...], ...]  # per seat: cards known to be in that hand (own: all)
    took: tuple[tuple[Card, ...], ...]  # per seat: cards taken from the pile this round
    dropped: tuple[tuple[Card, ...], ...]  # per seat: cards thrown or passed over this round
    last_turn: tuple[LastTurn | None, ...]  # per seat, this round


def knowledge_of(view: PlayerView) -> Knowledge:
    players, seat = view.players, seat_of(view)
    pile: list[Card] = []
    held: list[list[Card]] = [[] for _ in range(players)]
    took: list[list[Card]] = [[] for _ in range(players)]
    dropped: list[list[Card]] = [[] for _ in range(players)]
    drew_from_pile = [False] * players
    last_turn: list[LastTurn | None] = [None] * players
    for who, kind, card in view.pile_events:
        if kind in (PILE_TURNED, PILE_RESHUFFLED):
            pile = [card]
        elif kind == PILE_TOOK:
            assert who is not None, "a seat took it"
            if pile and pile[-1] == card:
                pile.pop()
            held[who].append(card)
            took[who].append(card)
            drew_from_pile[who] = True
        elif kind == PILE_THREW:
            assert who is not None, "a seat threw it"
            passed = None if drew_from_pile[who] or not pile else pile[-1]
            if passed is not None:
                dropped[who].append(passed)  # it let this card lie
            took_now = took[who][-1] if drew_from_pile[who] else None
            wants = tuple(held[(who + 1) % players])
            last_turn[who] = LastTurn(passed, took_now, card, wants)
            drew_from_pile[who] = False
            if card in held[who]:
                held[who].remove(card)
            dropped[who].append(card)
            pile.append(card)
    if view.top_discard is not None and (not pile or pile[-1] != view.top_discard):
        pile = [view.top_discard]  # no log (an older snapshot): only the top card is known
    held[seat] = list(hand_of(view))
    known = Counter(hand_of(view))
    known.update(pile)
    for other in range(players):
        if other != seat:
            known.update(held[other])
    for melds in view.shown_melds:
        for meld in melds:
            known.update(meld)
    deck = Counter(make_deck(view.rules.deck_count(players), view.rules.jokers))
    unseen = tuple(sorted((deck - known).elements()))
    return Knowledge(
        seat=seat,
        unseen=unseen,
        pile=tuple(pile),
        held=tuple(tuple(h) for h in held),
        took=tuple(tuple(t) for t in took),
        dropped=tuple(tuple(d) for d in dropped),
        last_turn=tuple(last_turn),
    )


def card_weights(knowledge: Knowledge, other: int, view: PlayerView) -> list[float]:
    """How likely each unseen card is in `other`'s hand, relative to the others."""
    rules, wild = view.rules, view.wild_rank
    weights = []
    for card in knowledge.unseen:
        weight = 1.0
        if not rules.is_wild(card, wild):
            for taken in knowledge.took[other]:
                if related(card, taken, rules):
                    weight *= TOOK_WEIGHT
            for thrown in knowledge.dropped[other]:
                if related(card, thrown, rules):
                    weight *= THREW_WEIGHT
        weights.append(weight)
    return weights


def sample_deal(
    knowledge: Knowledge,
    view: PlayerView,
    weights: dict[int, list[float]],
    active: list[int],
    rng: random.Random,
) -> tuple[list[list[Card]], list[Card]]:
    """One determinization: every hand (own as it is; each `active` opponent's known cards
    plus weighted draws from the unseen) and a shuffled stock of what is left."""
    pool = list(knowledge.unseen)
    alive = [True] * len(pool)
    hands: list[list[Card]] = [[] for _ in range(view.players)]
    hands[seat_of(view)] = list(hand_of(view))
    for other in active:
        hand = list(knowledge.held[other])
        need = max(0, view.card_counts[other] - len(hand))
        if need:
            # Weighted sampling without replacement (Efraimidis-Spirakis keys).
            keyed = sorted(
                (
                    (-(rng.random() ** (1.0 / w)), i)
                    for i, w in enumerate(weights[other])
                    if alive[i]
                ),
            )
            for _key, i in keyed[:need]:
                alive[i] = False
                hand.append(pool[i])
        hands[other] = hand
    stock = [card for card, live in zip(pool, alive, strict=True) if live]
    rng.shuffle(stock)
    return hands, stock[: view.stock_size]


def explains(hand: list[Card], turn: LastTurn, known: Counter[Card], view: PlayerView) -> float:
    """How well `hand` (a seat's hand now) explains its last turn as the medium level would
    have played it: 0 when its throw did not leave the least penalty (or it could have gone
    out); else 1 when it is the medium level's own pick (least left, costliest card, no card
    the next seat wants), OFF_ORDER when not; times, when it drew from the stock, the share of
    the cards it might have drawn (those of hand + throw not known to be held) for which the
    hand before would not have taken the top card it let lie."""
    rules, wild = view.rules, view.wild_rank
    after = [*hand, turn.threw]
    options = cached_discard_options(after, wild, rules)
    least = min(options.values())
    if options[turn.threw] > least or (least == 0 and cached_going_out_cards(after, wild, rules)):
        return 0.0
    ranked = discard_order(
        after,
        wild,
        rules,
        barred=face(turn.took) if turn.took is not None else None,
        extra_cost=lambda card: MediumBot.feed_cost(card, turn.wants, wild, rules),
    )
    weight = 1.0 if ranked[0][1] == turn.threw else OFF_ORDER
    if turn.passed is None:
        return weight
    drawn = [card for card in after if not known[card]]
    if not drawn:
        return weight
    lay = 0
    for card in drawn:
        before = list(after)
        before.remove(card)
        lay += not takes_discard(before, turn.passed, wild, rules)
    return weight * lay / len(drawn)


def sample_hands(
    knowledge: Knowledge, view: PlayerView, seat: int, count: int, rng: random.Random
) -> list[list[Card]]:
    """`count` hands of `seat`, drawn as `sample_deal` draws them, read against its last
    turn: of SAMPLE_POOL times as many samples, `count` drawn by how well each explains that
    turn (`explains`). When none does, the first samples as they came."""
    weights = {seat: card_weights(knowledge, seat, view)}
    pool = [
        sample_deal(knowledge, view, weights, [seat], rng)[0][seat]
        for _ in range(count * SAMPLE_POOL)
    ]
    turn = knowledge.last_turn[seat]
    if turn is None:
        return pool[:count]
    known = Counter(knowledge.held[seat])
    scores = [explains(hand, turn, known, view) for hand in pool]
    # Weighted sampling without replacement (Efraimidis-Spirakis keys), as in sample_deal.
    keyed = sorted((-(rng.random() ** (1.0 / w)), i) for i, w in enumerate(scores) if w > 0)
    return [pool[i] for _key, i in keyed[:count]] or pool[:count]
