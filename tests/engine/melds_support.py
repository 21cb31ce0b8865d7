"""Shared by the meld solver's tests: hands written as text, the check every arrangement must pass,
hypothesis strategies and an independent brute-force reference."""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from games.engine import Arrangement, Card, Rules, arrange, is_meld
from games.engine.cards import make_deck, parse_cards
from tests.examples import examples

DEFAULT = Rules()
HIGH = Rules(aces_high=True)
ONE_WILD = Rules(max_wilds_per_meld=1)
ALL_WILD = Rules(all_wild_melds=True)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def faces(cs) -> list[str]:
    return sorted(str(c) for c in cs)


def check_arrangement(hand, wild_rank, rules, result: Arrangement, table_melds=()):
    """Every meld legal, every card used exactly once, penalty = what the deadwood costs."""
    for meld in result.melds:
        assert is_meld(meld, wild_rank, rules), faces(meld)
    used = [c for meld in result.melds for c in meld] + list(result.deadwood)
    for index, laid in result.layoffs:
        assert laid
        used += laid
        assert is_meld([*table_melds[index], *laid], wild_rank, rules)
    assert len({i for i, _ in result.layoffs}) == len(result.layoffs)
    assert Counter(used) == Counter(hand)
    assert result.penalty == sum(rules.penalty(c, wild_rank) for c in result.deadwood)


def penalty(text: str, wild_rank: int | None = None, rules: Rules = DEFAULT, table=()) -> int:
    hand = cards(text)
    table_melds = [cards(t) for t in table]
    result = arrange(hand, wild_rank, rules, table_melds)
    check_arrangement(hand, wild_rank, rules, result, table_melds)
    return result.penalty


POOL = make_deck(3, jokers=True)

rules_strategy = st.builds(
    Rules,
    aces_high=st.booleans(),
    face_cards_by_rank=st.booleans(),
    wild_penalty=st.sampled_from([None, 15, 0]),
    max_wilds_per_meld=st.sampled_from([None, None, 1, 2, 3]),
    all_wild_melds=st.booleans(),
)
wild_rank_strategy = st.one_of(st.none(), st.integers(1, 13))


@st.composite
def hands(draw, max_size=16, decks=3):
    """A hand drawn from `decks` decks with jokers, biased towards meldable cards."""
    pool = [c for c in POOL if c.copy < decks or c.is_joker]
    suits = draw(st.sets(st.sampled_from("SHDCJ"), min_size=1, max_size=5))
    low = draw(st.integers(1, 13))
    near = [c for c in pool if c.suit in suits and (c.is_joker or low <= c.rank < low + 6)]
    size = draw(st.integers(0, max_size))
    picks = draw(st.lists(st.sampled_from(near), max_size=size, unique=True))
    rest = draw(st.lists(st.sampled_from(pool), max_size=size - len(picks), unique=True))
    return list(dict.fromkeys(picks + rest))


FAST = examples(1)


def brute_penalty(hand, wild_rank, rules, table_melds=()):
    """Least penalty by trying every split of `hand` into melds, lay-offs and deadwood."""
    table = [list(m) for m in table_melds]
    best = [sum(rules.penalty(c, wild_rank) for c in hand)]

    def go(rest, cost, extra):
        if cost >= best[0]:
            return
        if not rest:
            if all(
                not add or is_meld(table[i] + add, wild_rank, rules) for i, add in enumerate(extra)
            ):
                best[0] = cost
            return
        first, others = rest[0], rest[1:]
        go(others, cost + rules.penalty(first, wild_rank), extra)
        for i in range(len(table)):
            go(others, cost, [*extra[:i], [*extra[i], first], *extra[i + 1 :]])
        n = len(others)
        for bits in range(3, 1 << n):
            group = [first] + [others[k] for k in range(n) if bits >> k & 1]
            if len(group) >= 3 and is_meld(group, wild_rank, rules):
                go([others[k] for k in range(n) if not bits >> k & 1], cost, extra)

    go(list(hand), 0, [[] for _ in table])
    return best[0]


def brute_all_in_melds(hand, wild_rank, rules) -> bool:
    """Whether every card of `hand` fits in a meld, by trying every split: what going out asks,
    whatever a left-over card would cost."""
    if not hand:
        return True
    first, others = hand[0], hand[1:]
    n = len(others)
    for bits in range(3, 1 << n):
        group = [first] + [others[k] for k in range(n) if bits >> k & 1]
        rest = [others[k] for k in range(n) if not bits >> k & 1]
        meld = len(group) >= 3 and is_meld(group, wild_rank, rules)
        if meld and brute_all_in_melds(rest, wild_rank, rules):
            return True
    return False


@st.composite
def table_melds(draw, wild_rank, rules):
    melds = []
    for _ in range(draw(st.integers(1, 3))):
        suit, rank = draw(st.sampled_from("SHDC")), draw(st.integers(1, 10))
        if draw(st.booleans()):
            meld = [Card(rank + k, suit, 2) for k in range(draw(st.integers(3, 4)))]
        else:
            meld = [Card(rank, s, 2) for s in draw(st.permutations("SHDC"))[:3]]
        if draw(st.booleans()):
            meld[draw(st.integers(0, len(meld) - 1))] = Card(0, "J", 5 + len(melds))
        if is_meld(meld, wild_rank, rules):
            melds.append(meld)
    return melds
