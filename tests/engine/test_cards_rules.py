"""Cards and the variant switches: parsing, decks, schedules, wild ranks, penalties."""

from __future__ import annotations

import pytest

from games.engine.cards import Card, make_deck, parse_card, parse_cards, shuffled
from games.engine.rules import Rules

pytestmark = pytest.mark.engine


def test_parse_cards_round_trips_through_str():
    text = "AS 2H 10D JC QS KH JK 7C"
    hand = parse_cards(text)
    assert " ".join(str(c) for c in hand) == text
    assert [(c.rank, c.suit) for c in hand[:2]] == [(1, "S"), (2, "H")]
    assert hand[6].is_joker and hand[6].rank == 0 and hand[6].suit == "J"


def test_every_card_round_trips():
    for card in make_deck(1, jokers=True):
        assert str(parse_card(str(card))) == str(card)
        assert Card.from_token(card.token) == card


def test_a_face_named_twice_is_two_cards():
    first, second = parse_cards("7H 7H")
    assert (first.copy, second.copy) == (0, 1)
    assert first != second
    assert str(first) == str(second) == "7H"
    assert Card.from_token(second.token) == second


@pytest.mark.parametrize("bad", ["1H", "11S", "7X", "H", "", "ZZ"])
def test_parse_rejects_junk(bad):
    with pytest.raises(ValueError):
        parse_card(bad)


def test_decks_and_shuffle():
    assert len(make_deck(1)) == 52
    assert len(make_deck(2, jokers=True)) == 108
    assert len(set(make_deck(3, jokers=True))) == 162
    deck = make_deck(2)
    assert shuffled(deck, "seed") == shuffled(deck, "seed")
    assert sorted(shuffled(deck, "seed")) == sorted(deck)


@pytest.mark.parametrize(
    ("players", "decks"), [(2, 1), (3, 2), (4, 2), (5, 2), (6, 2), (7, 3), (8, 3)]
)
def test_deck_count_classic(players, decks):
    assert Rules().deck_count(players) == decks


def test_deck_count_leaves_twenty_in_stock():
    for schedule in ("classic", "extended", "up_and_down"):
        for jokers in (False, True):
            rules = Rules(rounds=schedule, jokers=jokers)
            for players in range(2, 9):
                decks = rules.deck_count(players)
                per_deck = 54 if jokers else 52
                assert decks * per_deck - players * max(rules.hand_sizes) >= 20
                if decks > (1 if players == 2 else 2):  # no more than needed
                    assert (decks - 1) * per_deck - players * max(rules.hand_sizes) < 20


def test_deck_count_refuses_bad_player_counts():
    for players in (1, 9):
        with pytest.raises(ValueError):
            Rules().deck_count(players)


def test_schedules_and_wild_ranks():
    classic = Rules()
    assert classic.hand_sizes == tuple(range(3, 14)) and classic.round_count == 11
    assert [classic.wild_rank_for(n) for n in classic.hand_sizes] == list(range(3, 14))
    extended = Rules(rounds="extended")
    assert extended.hand_sizes[-2:] == (14, 15) and extended.round_count == 13
    assert [extended.wild_rank_for(n) for n in extended.hand_sizes[-2:]] == [1, 2]  # aces, 2s
    up_down = Rules(rounds="up_and_down")
    assert up_down.round_count == 22
    assert up_down.hand_sizes[:11] == tuple(range(3, 14))
    assert up_down.hand_sizes[11:] == tuple(range(13, 2, -1))
    with pytest.raises(ValueError):
        Rules(rounds="sideways")


def test_penalties():
    rules = Rules()
    pen = {str(c): rules.penalty(c, 9) for c in parse_cards("AS 5H 10D JC QD KS JK 9H")}
    assert pen == {"AS": 1, "5H": 5, "10D": 10, "JC": 10, "QD": 10, "KS": 10, "JK": 20, "9H": 9}
    by_rank = Rules(face_cards_by_rank=True)
    assert [by_rank.penalty(c, None) for c in parse_cards("JC QD KS")] == [11, 12, 13]
    assert Rules(aces_high=True).penalty(parse_card("AS"), None) == 15
    assert Rules(wild_penalty=15).penalty(parse_card("9H"), 9) == 15
    assert Rules(wild_penalty=15).penalty(parse_card("8H"), 9) == 8
    assert Rules(wild_penalty=15).penalty(parse_card("JK"), 9) == 20
    assert Rules(face_cards_by_rank=True).penalty(parse_card("KH"), 13) == 13  # wild: face value


def test_wilds():
    rules = Rules()
    assert rules.is_wild(parse_card("7H"), 7)
    assert not rules.is_wild(parse_card("8H"), 7)
    assert rules.is_wild(parse_card("JK"), None)
    assert not rules.is_wild(parse_card("7H"), None)


def test_double_face_rounds():
    rules = Rules(double_face_rounds=True)
    assert [rules.round_multiplier(r) for r in (10, 11, 12, 13, 1)] == [1, 2, 2, 2, 1]
    assert Rules().round_multiplier(12) == 1


def test_rules_round_trip_through_dict():
    rules = Rules(aces_high=True, max_wilds_per_meld=1, rounds="extended")
    assert Rules.from_dict(rules.to_dict() | {"unknown": 1}) == rules
    with pytest.raises(ValueError):
        Rules(max_wilds_per_meld=0)
