"""The meld solver: hand-written cases for every rule, and property tests against an independent
brute-force reference."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Arrangement,
    Card,
    Rules,
    arrange,
    can_go_out,
    discard_options,
    is_meld,
    melds,  # the written-out (min, +) sums, to check against the loops
)
from games.engine.cards import make_deck, parse_cards
from games.engine.melds import _Solver  # the general search, to check the fast path against

pytestmark = pytest.mark.engine

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


# -- is_meld: one case per rule ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "wild_rank", "rules", "expected"),
    [
        ("7S 7H 7D", None, DEFAULT, True),
        ("7S 7H", None, DEFAULT, False),
        ("AH 2H 3H", None, DEFAULT, True),
        ("3H 2H AH", None, DEFAULT, True),  # order does not matter
        ("AH 2H 3S", None, DEFAULT, False),
        ("QH KH AH", None, DEFAULT, False),  # aces low
        ("QH KH AH", None, HIGH, True),
        ("AH 2H 3H", None, HIGH, True),  # ace high may still be low
        ("KH AH 2H", None, HIGH, False),  # no wrapping, ever
        ("KH AH 2H", None, DEFAULT, False),
        ("5H 6H 6H 7H", None, DEFAULT, False),  # no repeated rank in a run
        ("5H 5H 5S", None, DEFAULT, True),  # two decks: one card twice in a set
        ("5H 5H 5H", None, DEFAULT, True),
        ("5H JK 7H", None, DEFAULT, True),  # a joker fills the gap
        ("5H JK 8H", None, DEFAULT, False),
        ("5H 9S 7H", 9, DEFAULT, True),  # the 9 is wild in the 9s round
        ("7H 8H 9H", 7, DEFAULT, True),  # the 7 stands in its own place and is still a wild
        ("7H 8H 9H JK", 7, ONE_WILD, False),  # ... so with a joker it holds two wilds
        ("7H 8H 9H", 7, ONE_WILD, True),
        ("5H JK JK", None, DEFAULT, True),
        ("5H JK JK", None, ONE_WILD, False),
        ("9S 9H 9D", 9, DEFAULT, False),  # all wild
        ("9S 9H 9D", 9, ALL_WILD, True),
        ("JK JK JK", None, DEFAULT, False),
        ("JK JK JK", None, ALL_WILD, True),
        ("JK JK JK", None, Rules(all_wild_melds=True, max_wilds_per_meld=2), False),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None, DEFAULT, True),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", None, HIGH, False),  # never both ends
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", None, HIGH, True),
        ("JH QH JK JK", None, HIGH, True),  # the wilds may be K and A
        ("5S JK JK JK JK JK JK JK JK JK JK JK JK JK JK", None, DEFAULT, True),  # a set of 15
    ],
)
def test_is_meld(text, wild_rank, rules, expected):
    assert is_meld(cards(text), wild_rank, rules) is expected


# -- arrange: one case per rule ------------------------------------------------------------------


def test_contract_example():
    result = arrange(cards("7H 8H 9S JK QC QD"), wild_rank=9, rules=DEFAULT)
    assert result.penalty == 0
    assert result.deadwood == []


def test_empty_hand():
    assert arrange([], 3, DEFAULT) == Arrangement([], [], 0)


def test_aces_high_queen_king_ace():
    assert penalty("QH KH AH") == 21  # ace low: 10 + 10 + 1
    assert penalty("QH KH AH", rules=HIGH) == 0
    assert penalty("KH AH 2H", rules=HIGH) == 10 + 15 + 2  # never K-A-2


def test_aces_high_left_over_ace_costs_15():
    assert penalty("AS 5D", rules=HIGH) == 15 + 5
    assert penalty("AS 5D") == 1 + 5


def test_face_cards_by_rank():
    assert penalty("JS QD KC") == 30
    assert penalty("JS QD KC", rules=Rules(face_cards_by_rank=True)) == 11 + 12 + 13


def test_joker_costs_20_and_wild_its_face_value_or_15():
    assert penalty("JK 2D") == 22
    assert penalty("9S 2D", wild_rank=9) == 11
    assert penalty("9S 2D", wild_rank=9, rules=Rules(wild_penalty=15)) == 17
    assert penalty("KS", wild_rank=13, rules=Rules(face_cards_by_rank=True)) == 13
    assert penalty("JK", wild_rank=None, rules=Rules(wild_penalty=15)) == 20


def test_jokers_are_wild_without_a_wild_rank():
    assert penalty("5H 6H JK", wild_rank=None) == 0


def test_wild_in_its_own_place_counts_against_one_wild_per_meld():
    assert penalty("7H 8H 9H", wild_rank=7, rules=ONE_WILD) == 0
    # 7H and the joker are both wild: only one may join the run
    assert penalty("7H 8H 9H JK", wild_rank=7, rules=ONE_WILD) == 7
    assert penalty("7H 8H 9H JK", wild_rank=7) == 0


def test_one_wild_per_meld():
    assert penalty("5H JK JK") == 0
    assert penalty("5H JK JK", rules=ONE_WILD) == 5 + 20 + 20
    assert penalty("5H 5S JK JK", rules=ONE_WILD) == 20
    assert penalty("5H 5S 8C 8D JK JK", rules=ONE_WILD) == 0


def test_all_wild_melds():
    assert penalty("9S 9H 9D", wild_rank=9) == 27
    assert penalty("9S 9H 9D", wild_rank=9, rules=ALL_WILD) == 0
    assert penalty("JK JK JK JK 2C", wild_rank=None, rules=ALL_WILD) == 0
    assert penalty("JK JK JK 5H 9D", wild_rank=None) == 5  # the jokers join 9D; 5H is left


def test_duplicates_with_two_decks():
    assert penalty("7H 7H 7S") == 0
    assert penalty("7H 7H 8H") == 22  # no run holds two sevens
    assert penalty("7H 7H 8H 9H 7S") == 14  # 7H 8H 9H, leaving 7H 7S
    assert penalty("7H 7H 8H 9H 7S 7D") == 0  # 7H 8H 9H and 7H 7S 7D
    assert penalty("5H 6H 7H 5H 6H 7H") == 0  # two identical runs


def test_the_dearest_wilds_are_melded():
    # one wild per meld: the run takes one wild, the other is left; the joker is the dearer
    result = arrange(cards("5H 6H 7H 9S JK"), 9, ONE_WILD)
    assert faces(result.deadwood) == ["9S"] and result.penalty == 9
    assert penalty("5H 6H 7H 9S JK", 9, Rules(max_wilds_per_meld=1, wild_penalty=15)) == 15
    assert penalty("5H 6H 7H 9C 9D 9S JK 3C", 3, ONE_WILD) == 0  # two melds, a wild each
    result = arrange(cards("5H 6H 7H JK 3C 3D"), 3, ONE_WILD)
    assert faces(result.deadwood) == ["3C", "3D"] and result.penalty == 6


def test_no_meld_leaves_every_wild():
    assert penalty("5H JK") == 25
    assert penalty("5H 9S JK JK", 9, ONE_WILD) == 5 + 9 + 40


def test_more_wilds_than_one_run_can_hold():
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK"
    assert penalty(hand) == 0
    assert penalty(hand, rules=ONE_WILD) == 0  # split the run in two, a joker each
    assert penalty("AH 2H 3H 4H 5H JK JK JK JK JK JK JK JK JK", rules=ONE_WILD) == 20 * 7


def test_extended_round_aces_wild():
    assert penalty("AS AH 5D 6D", wild_rank=1, rules=HIGH) == 0


# -- redemption: lay-offs ------------------------------------------------------------------------


def test_layoff_onto_a_set_and_a_run():
    table = ["9S 9D 9H", "6H 7H 8H"]
    assert penalty("9C 5H 2D", table=table) == 2
    assert penalty("9C 5H 9H 2D", table=table) == 2  # a second 9H with two decks


def test_layoff_at_both_ends_of_a_run():
    assert penalty("5H 9H", table=["6H 7H 8H"]) == 0
    assert penalty("4H 9H", table=["6H 7H 8H"]) == 4  # no wild for the gap at 5
    assert penalty("4H 9H JK", table=["6H 7H 8H"]) == 0


def test_layoff_leaving_no_cards_scores_zero():
    result = arrange(cards("JK"), 7, DEFAULT, [cards("6H 7S 8H")])
    assert result.penalty == 0
    assert result.melds == [] and result.deadwood == []
    assert result.layoffs == [(0, cards("JK"))]


def test_layoff_wilds_count_against_the_cap():
    assert penalty("JK", wild_rank=7, rules=ONE_WILD, table=["6H 7S 8H"]) == 20
    assert penalty("JK", wild_rank=7, rules=ONE_WILD, table=["6H 7H 8H 9H"]) == 20
    assert penalty("JK", wild_rank=None, rules=ONE_WILD, table=["6H 7H 8H 9H"]) == 0


def test_layoff_onto_a_run_stays_a_run():
    assert penalty("QH KH AH", table=["9H 10H JH"]) == 1  # aces low: the ace is left
    assert penalty("QH KH AH", rules=HIGH, table=["9H 10H JH"]) == 0
    assert penalty("2H", rules=HIGH, table=["JH QH KH AH"]) == 2


def test_own_melds_and_layoffs_together():
    table = ["3S 3D 3C", "10D JD QD"]
    assert penalty("3H 9D KD 5C 6C 7C", table=table) == 0
    assert penalty("3H 9D KD 5C 6C 7C 8S", table=table) == 8


def test_invalid_table_meld_is_refused():
    with pytest.raises(ValueError):
        arrange(cards("5H"), None, DEFAULT, [cards("5S 6H 7D")])


# -- discard options ------------------------------------------------------------------------------


def test_discard_options_and_going_out():
    hand = cards("7H 8H 9H 3C 3D 3S KH")
    options = discard_options(hand, None, DEFAULT)
    assert options[hand[6]] == 0
    assert options[hand[0]] == 8 + 9 + 10  # 8H 9H KH left
    assert can_go_out(hand, None, DEFAULT) == [hand[6]]


def test_discard_options_with_wilds_and_duplicates():
    hand = cards("5H 5H 6H JK 9S")
    options = discard_options(hand, 9, DEFAULT)
    assert set(options) == set(hand)
    for i, card in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        assert options[card] == arrange(rest, 9, DEFAULT).penalty


# -- property tests -------------------------------------------------------------------------------

POOL = make_deck(3, jokers=True)

rules_strategy = st.builds(
    Rules,
    aces_high=st.booleans(),
    face_cards_by_rank=st.booleans(),
    wild_penalty=st.sampled_from([None, 15]),
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


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(hand=hands(), wild_rank=wild_rank_strategy, rules=rules_strategy)
def test_arrangement_is_legal_and_complete(hand, wild_rank, rules):
    check_arrangement(hand, wild_rank, rules, arrange(hand, wild_rank, rules))


@st.composite
def hand_with_partition(draw):
    """A hand built from random legal melds plus random deadwood: an arrangement to beat."""
    rules = draw(rules_strategy)
    wild_rank = draw(wild_rank_strategy)
    pool = list(POOL)
    melds = []
    for _ in range(draw(st.integers(0, 4))):
        candidates = draw(st.permutations(pool))[: draw(st.integers(3, 6))]
        suit, rank = draw(st.sampled_from("SHDC")), draw(st.integers(1, 13))
        kind = draw(st.sampled_from(["set", "run", "any"]))
        if kind == "set":
            candidates = [c for c in pool if c.rank == rank or rules.is_wild(c, wild_rank)]
        elif kind == "run":
            top = rank + draw(st.integers(2, 6))
            candidates = [
                c
                for c in pool
                if (c.suit == suit and rank <= c.rank <= top) or rules.is_wild(c, wild_rank)
            ]
        if len(candidates) < 3:
            continue
        meld = draw(st.lists(st.sampled_from(candidates), min_size=3, max_size=6, unique=True))
        if is_meld(meld, wild_rank, rules):
            melds.append(meld)
            pool = [c for c in pool if c not in meld]
    deadwood = draw(st.lists(st.sampled_from(pool), max_size=4, unique=True))
    return rules, wild_rank, melds, deadwood


@FAST
@given(case=hand_with_partition())
def test_never_worse_than_a_shown_arrangement(case):
    rules, wild_rank, melds, deadwood = case
    hand = [c for meld in melds for c in meld] + deadwood
    result = arrange(hand, wild_rank, rules)
    check_arrangement(hand, wild_rank, rules, result)
    assert result.penalty <= sum(rules.penalty(c, wild_rank) for c in deadwood)


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


@settings(max_examples=300, deadline=None)
@given(hand=hands(max_size=8, decks=2), wild_rank=wild_rank_strategy, rules=rules_strategy)
def test_matches_brute_force_on_small_hands(hand, wild_rank, rules):
    assert arrange(hand, wild_rank, rules).penalty == brute_penalty(hand, wild_rank, rules)


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


@settings(max_examples=150, deadline=None)
@given(data=st.data(), wild_rank=wild_rank_strategy, rules=rules_strategy)
def test_layoffs_match_brute_force(data, wild_rank, rules):
    hand = data.draw(hands(max_size=6, decks=2))
    table = data.draw(table_melds(wild_rank, rules))
    result = arrange(hand, wild_rank, rules, table)
    check_arrangement(hand, wild_rank, rules, result, table)
    assert result.penalty == brute_penalty(hand, wild_rank, rules, table)


@settings(max_examples=80, deadline=None)
@given(hand=hands(max_size=16), wild_rank=wild_rank_strategy, rules=rules_strategy)
def test_discard_options_match_arrange_without_each_card(hand, wild_rank, rules):
    options = discard_options(hand, wild_rank, rules)
    assert set(options) == set(hand)
    for i, card in enumerate(hand):
        assert options[card] == arrange(hand[:i] + hand[i + 1 :], wild_rank, rules).penalty
    assert can_go_out(hand, wild_rank, rules) == [c for c in hand if options[c] == 0]


@settings(max_examples=150, deadline=None)
@given(hand=hands(max_size=16), wild_rank=wild_rank_strategy, rules=rules_strategy)
def test_fast_path_agrees_with_the_general_search(hand, wild_rank, rules):
    """Big hands are beyond brute force: the two exact methods check each other instead."""
    general = _Solver(hand, wild_rank, rules)
    assert arrange(hand, wild_rank, rules).penalty == general.solve(*general.start())


def test_the_benchmark_shape_agrees_with_the_general_search():
    """The benchmark's 14-card two-deck hands with four wilds (seeded, so a failure replays):
    the fast path's arrangement is legal and as good as the general search's."""
    rng = random.Random("14 cards, 2 decks, 4 wilds")
    deck = make_deck(2)
    wilds = [c for c in deck if c.rank == 5]
    naturals = [c for c in deck if c.rank != 5]
    for rules in (DEFAULT, HIGH, Rules(face_cards_by_rank=True)):
        for _ in range(150):
            hand = rng.sample(wilds, 4) + rng.sample(naturals, 10)
            result = arrange(hand, 5, rules)
            check_arrangement(hand, 5, rules, result)
            general = _Solver(hand, 5, rules)
            assert result.penalty == general.solve(*general.start()), faces(hand)


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(
        st.lists(st.integers(0, 60), min_size=1, max_size=8).map(
            lambda xs: (*sorted(xs, reverse=True), 0)
        ),
        min_size=4,
        max_size=4,
    ),
    n=st.integers(0, 4),
)
def test_written_out_sums_match_the_loops(rows, n):
    """The (min, +) of four suit rows written out for up to four wilds equals the general loops
    (rows never rise and end with 0; padded with zeros as the suit table keeps them)."""
    padded = [row + (0,) * melds.PAD for row in rows]
    a, b, c, d = rows
    expected = melds._point(melds._conv(a, b, n), melds._conv(c, d, n), n)
    assert melds._POINTS[n](*padded) == expected
    assert melds._least(*padded, n) == expected


def test_a_table_outgrowing_its_limit_forgets_and_stays_right(monkeypatch):
    """The suit table clears itself past a size limit (a long-running process); answers stay the
    general search's."""
    monkeypatch.setattr(melds, "_SUIT_TABLE_LIMIT", 60)
    rules = Rules(aces_high=True, face_cards_by_rank=True)
    rng = random.Random("small table")
    deck = make_deck(2, jokers=True)
    for _ in range(60):
        hand = rng.sample(deck, 14)
        result = arrange(hand, 9, rules)
        check_arrangement(hand, 9, rules, result)
        general = _Solver(hand, 9, rules)
        assert result.penalty == general.solve(*general.start()), faces(hand)
    assert len(melds._suit_table(rules).cache) <= 61
