"""What a seat can infer from its view about the cards it cannot see, and hands sampled to fit.

From the pile log (PlayerView.pile_events) a seat knows which cards lie in the discard pile,
which cards each opponent took from it and still holds, and which faces each opponent threw or
passed over. The rest of the deck is unseen: it is in the stock or in the opponents' hands.
Sampled hands put the known cards where they are, then deal the unseen cards weighted by what
each opponent did: cards related (same rank, or suit neighbours) to what it took are likelier in
its hand, cards related to what it threw or let pass are less likely; and of those, the hands in
which its last throw was the greedy one are kept first (sample_hands)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ..cards import Card, make_deck
from ..solver_memo import cached_discard_options
from ..view import PILE_RESHUFFLED, PILE_THREW, PILE_TOOK, PILE_TURNED, PlayerView
from .base import related

TOOK_WEIGHT = 2.0  # per related card taken
THREW_WEIGHT = 0.6  # per related card thrown
PASSED_WEIGHT = 0.85  # per related top card left lying (drew from the stock instead)
SAMPLE_POOL = 6  # sample_hands: hands sampled per hand kept


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    unseen: tuple[Card, ...]  # sorted
    pile: tuple[Card, ...]  # the discard pile as far as known, top last
    held: tuple[tuple[Card, ...], ...]  # per seat: cards known to be in that hand (own: all)
    took: tuple[tuple[Card, ...], ...]  # per seat: cards taken from the pile this round
    dropped: tuple[tuple[Card, ...], ...]  # per seat: cards thrown or passed over this round
    last_threw: tuple[Card | None, ...]  # per seat: the card it threw last this round


def knowledge_of(view: PlayerView) -> Knowledge:
    players, seat = view.players, view.seat
    pile: list[Card] = []
    held: list[list[Card]] = [[] for _ in range(players)]
    took: list[list[Card]] = [[] for _ in range(players)]
    dropped: list[list[Card]] = [[] for _ in range(players)]
    drew_from_pile = [False] * players
    last_threw: list[Card | None] = [None] * players
    for who, kind, card in view.pile_events:
        if kind in (PILE_TURNED, PILE_RESHUFFLED):
            pile = [card]
        elif kind == PILE_TOOK:
            if pile and pile[-1] == card:
                pile.pop()
            held[who].append(card)
            took[who].append(card)
            drew_from_pile[who] = True
        elif kind == PILE_THREW:
            if not drew_from_pile[who] and pile:
                dropped[who].append(pile[-1])  # it let this card lie
            drew_from_pile[who] = False
            if card in held[who]:
                held[who].remove(card)
            dropped[who].append(card)
            last_threw[who] = card
            pile.append(card)
    if view.top_discard is not None and (not pile or pile[-1] != view.top_discard):
        pile = [view.top_discard]  # no log (an older snapshot): only the top card is known
    held[seat] = list(view.hand)
    known = Counter(view.hand)
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
        last_threw=tuple(last_threw),
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
    hands[view.seat] = list(view.hand)
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


def threw_greedily(hand: list[Card], thrown: Card, view: PlayerView) -> bool:
    """Whether `thrown` was a card that left `hand` + `thrown` its least penalty."""
    options = cached_discard_options((*hand, thrown), view.wild_rank, view.rules)
    return options[thrown] <= min(options.values())


def sample_hands(
    knowledge: Knowledge, view: PlayerView, seat: int, count: int, rng: random.Random
) -> list[list[Card]]:
    """`count` hands of `seat`, drawn as `sample_deal` draws them, read against the card it
    threw last: of SAMPLE_POOL times as many samples, those in which that throw was a greedy
    one (the card that left the least penalty), as most players' throws are. When none is,
    the first samples as they came."""
    weights = {seat: card_weights(knowledge, seat, view)}
    pool = [
        sample_deal(knowledge, view, weights, [seat], rng)[0][seat]
        for _ in range(count * SAMPLE_POOL)
    ]
    thrown = knowledge.last_threw[seat]
    kept = [hand for hand in pool if threw_greedily(hand, thrown, view)] if thrown else []
    return (kept or pool)[:count]
