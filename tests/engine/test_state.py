"""The game state machine, rule by rule, on hand-built situations."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.actions import Discard, Draw, GoOut
from games.engine.cards import Card, make_deck, shuffled
from games.engine.errors import RuleError
from games.engine.rules import Rules
from games.engine.state import GameState
from tests.engine.helpers import cards, finish_round, make_state, pass_turn

pytestmark = pytest.mark.engine


def deck_tokens(rules: Rules, players: int) -> Counter:
    return Counter(card.token for card in make_deck(rules.deck_count(players), rules.jokers))


def table_tokens(state: GameState) -> Counter:
    everything = [*state.stock, *state.discard_pile]
    for hand in state.hands:
        everything += hand
    return Counter(card.token for card in everything)


def assert_illegal(state: GameState, action, message: str) -> None:
    before = state.to_dict()
    with pytest.raises(RuleError, match=message):
        state.apply(action)
    assert state.to_dict() == before
    assert not state.is_legal(action)


# -- the deal --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schedule", "sizes", "wilds"),
    [
        ("classic", list(range(3, 14)), list(range(3, 14))),
        ("extended", list(range(3, 16)), [*range(3, 14), 1, 2]),
        (
            "up_and_down",
            [*range(3, 14), *range(13, 2, -1)],
            [*range(3, 14), *range(13, 2, -1)],
        ),
    ],
)
def test_each_round_deals_its_hand_size_and_wild_rank(schedule, sizes, wilds):
    rules = Rules(rounds=schedule, turn_limit=1)
    players = 3
    state = GameState.new(rules, players, "deal")
    deck_size = len(make_deck(rules.deck_count(players)))
    seen_sizes, seen_wilds = [], []
    while not state.is_over:
        seen_sizes.append(state.hand_size)
        seen_wilds.append(state.wild_rank)
        assert [len(hand) for hand in state.hands] == [state.hand_size] * players
        assert len(state.discard_pile) == 1
        assert len(state.stock) == deck_size - players * state.hand_size - 1
        assert table_tokens(state) == deck_tokens(rules, players)
        assert state.phase == "draw"
        finish_round(state)
    assert seen_sizes == sizes
    assert seen_wilds == wilds
    assert len(state.round_results) == len(sizes)
    assert [r.wild_rank for r in state.round_results] == wilds


def test_dealer_rotates_and_the_seat_after_the_dealer_starts():
    rules = Rules(turn_limit=1)
    state = GameState.new(rules, 4, "rotation")
    first = state.dealer
    for round_index in range(rules.round_count):
        assert state.round_index == round_index
        assert state.dealer == (first + round_index) % 4
        assert state.to_move == (state.dealer + 1) % 4
        finish_round(state)
    assert state.is_over


def test_first_dealer_comes_from_the_seed():
    dealers = {GameState.new(Rules(), 4, f"seed-{i}").dealer for i in range(60)}
    assert dealers == {0, 1, 2, 3}
    assert GameState.new(Rules(), 4, "same").dealer == GameState.new(Rules(), 4, "same").dealer


def test_the_deal_is_determined_by_seed_and_round():
    a, b = GameState.new(Rules(), 3, "s"), GameState.new(Rules(), 3, "s")
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != GameState.new(Rules(), 3, "t").to_dict()
    deck = make_deck(Rules().deck_count(3))
    order = shuffled(deck, "s:round:0")
    assert sorted(order[-9:]) == sorted(card for hand in a.hands for card in hand)
    assert a.discard_pile == [order[-10]]
    assert a.stock == order[:-10]


@pytest.mark.parametrize(
    ("players", "decks"), [(2, 1), (3, 2), (4, 2), (5, 2), (6, 2), (7, 3), (8, 3)]
)
def test_deck_count(players, decks):
    rules = Rules()
    assert rules.deck_count(players) == decks
    state = GameState.new(rules, players, "decks")
    assert sum(table_tokens(state).values()) == 52 * decks


@pytest.mark.parametrize(
    ("rules", "players", "decks"),
    [
        (Rules(rounds="extended"), 5, 2),  # 104 - 5 * 15 = 29 left
        (Rules(rounds="extended"), 6, 3),  # 104 - 6 * 15 = 14 < 20: a third deck
        (Rules(jokers=True), 6, 2),  # 108 - 6 * 13 = 30
        (Rules(rounds="extended", jokers=True), 8, 3),
    ],
)
def test_deck_count_leaves_twenty_cards_after_the_largest_deal(rules, players, decks):
    assert rules.deck_count(players) == decks
    state = GameState.new(rules, players, "decks")
    assert table_tokens(state) == deck_tokens(rules, players)
    per_deck = 54 if rules.jokers else 52
    assert per_deck * decks - players * max(rules.hand_sizes) >= 20


def test_too_few_or_too_many_players_is_refused():
    with pytest.raises(ValueError):
        GameState.new(Rules(), 1, "x")
    with pytest.raises(ValueError):
        GameState.new(Rules(), 9, "x")


def test_jokers_are_in_the_deck_two_per_deck():
    rules = Rules(jokers=True)
    state = GameState.new(rules, 4, "jokers")
    tokens = table_tokens(state)
    decks = rules.deck_count(4)
    assert sum(tokens.values()) == 54 * decks
    assert sorted(t for t in tokens if t.startswith("JK")) == sorted(
        Card(0, "J", copy).token for copy in range(2 * decks)
    )
    assert not any(t.startswith("JK") for t in table_tokens(GameState.new(Rules(), 4, "j")))


def test_a_joker_is_wild_for_going_out():
    state = make_state(["5H JK KS", "9C 10D QS"], discard="7H")
    state.apply(Draw(0, "discard"))
    assert GoOut(0, Card(13, "S")) in state.legal_actions()
    state.apply(GoOut(0, Card(13, "S")))
    assert state.went_out == 0


# -- a turn ----------------------------------------------------------------------------------------


def test_draw_from_stock_then_discard_passes_the_turn():
    state = make_state(["5H 6H KS", "9C 10D QS", "AS 2D 8C"], stock="2C 4D", discard="JC")
    assert state.phase == "draw" and state.to_move == 0
    record = state.apply(Draw(0, "stock"))
    assert record.card == Card(4, "D") and record.source == "stock" and record.type == "draw"
    assert state.phase == "discard" and state.to_move == 0
    assert state.stock == cards("2C") and Card(4, "D") in state.hands[0]
    assert state.drawn_from_discard is None
    record = state.apply(Discard(0, Card(13, "S")))
    assert record.type == "discard" and record.card == Card(13, "S")
    assert state.discard_pile == cards("JC KS")
    assert state.hands[0] == cards("5H 6H 4D")
    assert state.phase == "draw" and state.to_move == 1
    assert state.action_count == 2


def test_draw_from_discard_takes_the_top_card():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="2C", discard="JC 8H")
    record = state.apply(Draw(0, "discard"))
    assert record.card == Card(8, "H") and record.source == "discard"
    assert state.discard_pile == cards("JC")
    assert state.drawn_from_discard == Card(8, "H")
    state.apply(Discard(0, Card(5, "H")))
    assert state.drawn_from_discard is None
    assert state.to_move == 1


def test_turns_go_round_the_table_in_seat_order():
    state = make_state(["5H 6H KS", "9C 10D QS", "AS 2D 8C"], to_move=2)
    order = []
    for _ in range(5):
        order.append(state.to_move)
        pass_turn(state)
    assert order == [2, 0, 1, 2, 0]


def test_the_card_taken_from_the_discard_pile_may_not_be_thrown_back():
    state = make_state(["5H 6H KS", "9C 10D QS"], discard="JC 8H")
    state.apply(Draw(0, "discard"))
    assert Discard(0, Card(8, "H")) not in state.legal_actions()
    assert_illegal(state, Discard(0, Card(8, "H")), "may not throw back")
    state.apply(Discard(0, Card(13, "S")))
    assert state.discard_pile[-1] == Card(13, "S")


def test_nor_another_copy_of_the_same_face():
    state = make_state(["8H 6H KS", "9C 10D QS"], discard="JC 8H.1")
    state.apply(Draw(0, "discard"))
    assert_illegal(state, Discard(0, Card(8, "H")), "may not throw back")
    assert_illegal(state, Discard(0, Card(8, "H", 1)), "may not throw back")
    assert {a.card for a in state.legal_actions()} == set(cards("6H KS"))


@pytest.mark.parametrize(
    ("hand", "top"),
    [("JK JK.1 JK.2", "JK.3"), ("8H 8H.1 8H.2", "8H.3")],  # hands of one face (several decks)
)
def test_a_hand_all_of_the_taken_face_may_discard_one_of_them(hand, top):
    state = make_state([hand, "9C 10D QS"], rules=Rules(jokers=True), discard=f"5C {top}")
    state.apply(Draw(0, "discard"))
    discards = [action for action in state.legal_actions() if isinstance(action, Discard)]
    assert discards == [Discard(0, card) for card in cards(f"{hand} {top}")]
    state.apply(Discard(0, Card.from_token(top)))  # even the very card taken: all look alike
    assert state.discard_pile[-1] == Card.from_token(top) and state.to_move == 1


def test_the_whole_hand_of_the_taken_face_may_be_thrown_in_the_last_turns_too():
    state = make_state(
        ["9C 10D QS", "JK JK.1 JK.2"], rules=Rules(jokers=True, redemption=True), discard="JK.3"
    )
    state.went_out = 0
    state.to_move = 1
    state.apply(Draw(1, "discard"))
    assert state.legal_actions() == [Discard(1, card) for card in cards("JK JK.1 JK.2 JK.3")]
    state.apply(Discard(1, Card.from_token("JK.1")))
    assert state.round_index == 1


def test_going_out_with_a_card_of_the_taken_face_follows_the_same_rule():
    hand, rules = "JK JK.1 JK.2", Rules(jokers=True, all_wild_melds=True)
    state = make_state([hand, "9C 10D QS"], rules=rules, discard="5C JK.3")
    state.apply(Draw(0, "discard"))
    assert GoOut(0, Card.from_token("JK.3")) in state.legal_actions()
    state.apply(GoOut(0, Card.from_token("JK.2")))
    assert state.went_out == 0
    # one card of another face in the hand: the taken face is barred again, going out included
    state = make_state(["JK JK.1 JK.2 5C", "9C 10D QS"], rules=rules, discard="JK.3", round_index=1)
    state.apply(Draw(0, "discard"))
    assert state.legal_actions() == [Discard(0, Card(5, "C")), GoOut(0, Card(5, "C"))]
    assert_illegal(state, GoOut(0, Card.from_token("JK.1")), "may not throw back")
    # without all-wild melds the jokers do not meld: discarding one is the only way on
    state = make_state([hand, "9C 10D QS"], rules=Rules(jokers=True), discard="5C JK.3")
    state.apply(Draw(0, "discard"))
    assert not any(isinstance(action, GoOut) for action in state.legal_actions())
    assert_illegal(state, GoOut(0, Card.from_token("JK")), "cannot go out")


def hoard_jokers(state: GameState, hoarder: int) -> None:
    """Play on until `hoarder` holds nothing but jokers and has just taken another from the
    discard pile: everyone draws from the stock, except that the hoarder and the seat before it
    take a joker from the discard pile; the hoarder throws anything but a joker, the others
    throw their jokers first."""
    before = (hoarder - 1) % state.players
    while not (
        state.phase == "discard"
        and state.to_move == hoarder
        and state.drawn_from_discard is not None
        and all(card.is_joker for card in state.hands[hoarder])
    ):
        seat, legal = state.to_move, state.legal_actions()
        if state.phase == "draw":
            take = state.discard_pile[-1].is_joker and seat in (hoarder, before)
            stock = Draw(seat, "stock")
            state.apply(stock if stock in legal and not take else Draw(seat, "discard"))
        else:
            jokers = [a for a in legal if isinstance(a, Discard) and a.card.is_joker]
            others = [a for a in legal if isinstance(a, Discard) and not a.card.is_joker]
            state.apply((others or jokers)[0] if seat == hoarder else (jokers or others)[0])


def test_a_seeded_game_whose_player_ends_up_holding_only_jokers_goes_on():
    state = GameState.new(Rules(jokers=True), 3, "jk-22")
    hoard_jokers(state, hoarder=1)
    assert state.round_index == 0 and state.action_count == 337
    assert sorted(state.hands[1]) == cards("JK JK.1 JK.2 JK.3")
    assert state.drawn_from_discard.is_joker
    assert state.legal_actions() == [Discard(1, card) for card in state.hands[1]]
    state.apply(Discard(1, state.drawn_from_discard))
    finish_round(state)
    assert state.round_index == 1


def test_a_card_drawn_from_the_stock_may_be_thrown_back():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="8H", discard="JC")
    state.apply(Draw(0, "stock"))
    state.apply(Discard(0, Card(8, "H")))
    assert state.discard_pile[-1] == Card(8, "H")


def test_legal_actions_in_each_phase():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="2C", discard="JC")
    assert state.legal_actions() == [Draw(0, "stock"), Draw(0, "discard")]
    state.apply(Draw(0, "stock"))
    assert state.legal_actions() == [Discard(0, c) for c in cards("5H 6H KS 2C")]


# -- illegal actions change nothing ----------------------------------------------------------------


def test_playing_out_of_turn_is_refused():
    state = make_state(["5H 6H KS", "9C 10D QS"])
    assert_illegal(state, Draw(1, "stock"), "not your turn")
    state.apply(Draw(0, "stock"))
    assert_illegal(state, Discard(1, Card(9, "C")), "not your turn")


def test_discarding_a_card_not_in_hand_is_refused():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="2C")
    state.apply(Draw(0, "stock"))
    assert_illegal(state, Discard(0, Card(9, "C")), "do not hold")
    assert_illegal(state, Discard(0, Card(5, "H", 1)), "do not hold")  # another deck's copy
    assert_illegal(state, GoOut(0, Card(9, "C")), "do not hold")


def test_acting_in_the_wrong_phase_is_refused():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="2C")
    assert_illegal(state, Discard(0, Card(5, "H")), "Draw a card first")
    assert_illegal(state, GoOut(0, Card(5, "H")), "Draw a card first")
    state.apply(Draw(0, "stock"))
    assert_illegal(state, Draw(0, "stock"), "already drawn")
    assert_illegal(state, Draw(0, "discard"), "already drawn")


def test_going_out_when_the_rest_does_not_meld_is_refused():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="9D")
    state.apply(Draw(0, "stock"))
    assert not any(isinstance(a, GoOut) for a in state.legal_actions())
    for card in cards("5H 6H KS 9D"):
        assert_illegal(state, GoOut(0, card), "cannot go out")


def test_going_out_by_throwing_back_the_discard_is_refused():
    state = make_state(["5H 6H 7H", "9C 10D QS"], discard="KS")
    state.apply(Draw(0, "discard"))
    assert_illegal(state, GoOut(0, Card(13, "S")), "may not throw back")
    assert GoOut(0, Card(13, "S")) not in state.legal_actions()


def test_drawing_from_an_empty_discard_pile_is_refused():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="2C", discard="")
    assert state.legal_actions() == [Draw(0, "stock")]
    assert_illegal(state, Draw(0, "discard"), "discard pile is empty")


def test_an_unknown_draw_source_or_junk_is_refused():
    state = make_state(["5H 6H KS", "9C 10D QS"])
    assert_illegal(state, Draw(0, "table"), "stock or from the discard pile")
    assert_illegal(state, "draw", "not a move")


def test_nothing_is_legal_once_the_game_is_over():
    state = GameState.new(Rules(turn_limit=1), 2, "over")
    while not state.is_over:
        finish_round(state)
    assert state.phase == "game_over" and state.to_move is None
    assert state.legal_actions() == []
    assert_illegal(state, Draw(0, "stock"), "game is over")
    assert_illegal(state, Draw(1, "stock"), "game is over")


# -- going out and last turns ----------------------------------------------------------------------


def went_out_state(rules: Rules | None = None) -> GameState:
    """Four seats; seat 1 goes out with 5H 6H 7H by taking the 7H and discarding the KS."""
    state = make_state(
        ["9C 10D QS", "5H 6H KS", "KD KC 8S", "AS 2D 4C"],
        rules=rules,
        stock="2C 4D JD 9S",
        discard="JC 7H",
        to_move=1,
    )
    state.apply(Draw(1, "discard"))
    assert state.legal_actions()[-1] == GoOut(1, Card(13, "S"))
    record = state.apply(GoOut(1, Card(13, "S")))
    assert record.type == "go_out" and record.card == Card(13, "S")
    assert sorted(record.melds[0]) == sorted(cards("5H 6H 7H"))
    return state


def test_a_seat_cannot_go_out_with_a_free_wild_left_over():
    rules = Rules(wild_penalty=0, max_wilds_per_meld=1)
    state = make_state(
        ["7H 8H 9H 5D 5S", "2C 4D JD 9S 10C"], rules=rules, stock="KC", round_index=2
    )
    assert state.wild_rank == 5
    state.apply(Draw(0, "stock"))
    assert not any(isinstance(action, GoOut) for action in state.legal_actions())
    assert_illegal(state, GoOut(0, Card(13, "C")), "cannot go out")


def test_going_out_shows_the_melds_then_everyone_else_has_one_last_turn_in_seat_order():
    state = went_out_state()
    assert state.went_out == 1 and state.last_turns
    assert [sorted(m) for m in state.shown_melds[1]] == [sorted(cards("5H 6H 7H"))]
    assert state.discard_pile[-1] == Card(13, "S")
    order = []
    while state.round_index == 0:
        order.append(state.to_move)
        pass_turn(state)
    assert order == [2, 3, 0]
    assert len(state.round_results) == 1
    assert state.round_results[0].went_out == 1


def test_nobody_goes_out_a_second_time_in_the_last_turns():
    state = went_out_state()
    state.hands[2] = cards("8C 9C 10C")  # already melded: would be able to go out
    state.stock.append(Card(13, "H"))
    state.apply(Draw(2, "stock"))
    assert not any(isinstance(a, GoOut) for a in state.legal_actions())
    assert_illegal(state, GoOut(2, Card(13, "H")), "already gone out")
    record = state.apply(Discard(2, Card(13, "H")))
    assert not record.melds  # nothing is shown without redemption
    assert state.shown_melds[2] == []
    state.apply(Draw(3, "stock"))
    state.apply(Discard(3, state.hands[3][-1]))
    state.apply(Draw(0, "stock"))
    record = state.apply(Discard(0, state.hands[0][-1]))
    assert record.round_ended and not record.game_over
    assert state.round_results[0].penalties[2] == 0  # a complete hand simply scores 0


def test_the_player_who_went_out_scores_0_and_the_others_their_least_penalty():
    state = went_out_state()
    finish_round(state)
    result = state.round_results[0]
    # wild 3s: seat 0 9C 10D QS = 29, seat 2 KD KC 8S = 28, seat 3 AS 2D 4C = 7
    assert result.penalties == [29, 0, 28, 7]
    assert state.totals == [29, 0, 28, 7]
    assert result.seats[1].deadwood == ()
    assert sorted(result.seats[1].hand) == sorted(cards("5H 6H 7H"))
    # the next round is dealt, left of the next dealer
    assert state.round_index == 1 and state.hand_size == 4 and state.wild_rank == 4
    assert state.went_out is None and not state.last_turns
    assert state.shown_melds == [[], [], [], []]
    assert state.to_move == (state.dealer + 1) % 4


def test_last_turn_players_are_scored_on_their_best_arrangement():
    state = went_out_state()
    state.hands[3] = cards("AS 2S 4S 3D")  # 3D wild: AS 2S 3D 4S is a run
    finish_round(state)
    assert state.round_results[0].penalties[3] == 0
    seat = state.round_results[0].seats[3]
    assert sorted(seat.melds[0]) == sorted(cards("AS 2S 4S 3D"))


def test_a_round_result_partitions_each_hand():
    state = went_out_state()
    finish_round(state)
    for seat in state.round_results[0].seats:
        parts = [c for meld in seat.melds for c in meld] + list(seat.deadwood)
        parts += [c for layoff in seat.layoffs for c in layoff.cards]
        assert sorted(parts) == sorted(seat.hand)


# -- stock runs out --------------------------------------------------------------------------------


def test_an_empty_stock_is_rebuilt_from_the_discard_pile_below_its_top_card():
    def situation():
        return make_state(["5H 6H KS", "9C 10D QS"], stock="", discard="2C 4D JD 9S")

    state = situation()
    assert Draw(0, "stock") in state.legal_actions()
    record = state.apply(Draw(0, "stock"))
    assert record.reshuffled
    expected = shuffled(cards("2C 4D JD"), "test:round:0:reshuffle:0")
    assert record.card == expected[-1]
    assert state.stock == expected[:-1]
    assert state.discard_pile == cards("9S")
    assert state.reshuffles == 1
    again = situation()
    again.apply(Draw(0, "stock"))
    assert again.to_dict() == state.to_dict()


def test_successive_reshuffles_use_fresh_seeds():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="", discard="2C 4D JD 9S")
    state.apply(Draw(0, "stock"))
    state.apply(Discard(0, Card(13, "S")))
    state.stock = []
    state.discard_pile = cards("2C 4D JD 9S")
    state.apply(Draw(1, "stock"))
    expected = shuffled(cards("2C 4D JD"), "test:round:0:reshuffle:1")
    assert state.stock == expected[:-1]


def test_with_nothing_to_reshuffle_only_the_discard_pile_can_be_drawn():
    state = make_state(["5H 6H KS", "9C 10D QS"], stock="", discard="9S")
    assert state.legal_actions() == [Draw(0, "discard")]
    assert_illegal(state, Draw(0, "stock"), "stock is empty")
    state.apply(Draw(0, "discard"))
    state.apply(Discard(0, Card(13, "S")))
    assert state.legal_actions() == [Draw(1, "discard")]


def test_reshuffling_keeps_every_card():
    rules = Rules(turn_limit=40)
    state = GameState.new(rules, 2, "long")
    full = deck_tokens(rules, 2)
    while state.round_index == 0:
        pass_turn(state)
        assert table_tokens(state) == full
    assert state.round_results[0].went_out is None


# -- the turn limit --------------------------------------------------------------------------------


def test_a_round_nobody_goes_out_of_ends_after_the_turn_limit():
    rules = Rules(turn_limit=2)
    state = make_state(["9C 10D QS", "5H 6H KS", "KD KC 8S"], rules=rules, to_move=1)
    for turn in range(6):
        assert state.round_index == 0, turn
        pass_turn(state)
    assert state.round_index == 1
    result = state.round_results[0]
    assert result.went_out is None
    assert result.penalties == [29, 21, 28]


def test_the_default_turn_limit_is_100_turns_per_player():
    state = make_state(["9C 10D QS", "5H 6H KS"])
    assert state.rules.turn_limit == 100
    for _ in range(199):
        pass_turn(state)
    assert state.round_index == 0 and state.reshuffles > 0
    pass_turn(state)
    assert state.round_index == 1
    assert state.round_results[0].went_out is None
    assert state.round_results[0].penalties == [29, 21]


def test_going_out_on_the_last_allowed_turn_still_gives_last_turns():
    rules = Rules(turn_limit=1)
    state = make_state(["9C 10D QS", "5H 6H KS"], rules=rules, discard="7H", to_move=0)
    pass_turn(state)
    state.discard_pile.append(Card(7, "H"))
    state.apply(Draw(1, "discard"))
    state.apply(GoOut(1, Card(13, "S")))
    assert state.round_index == 0 and state.to_move == 0
    pass_turn(state)
    assert state.round_index == 1
    assert state.round_results[0].went_out == 1


# -- scoring ---------------------------------------------------------------------------------------


def test_a_tie_for_the_lowest_total_shares_the_win():
    rules = Rules(turn_limit=1)
    state = make_state(["4H 5H 6H", "QD", "9C"], rules=rules, round_index=10)
    state.totals = [20, 10, 15]
    finish_round(state)
    assert state.is_over
    assert state.totals == [20, 20, 24]
    assert state.winners == [0, 1]


def test_a_single_lowest_total_wins_alone():
    rules = Rules(turn_limit=1)
    state = make_state(["4H 5H 6H", "QD", "9C"], rules=rules, round_index=10)
    finish_round(state)
    assert state.winners == [0]
    assert state.view(None).winners == (0,)


@pytest.mark.parametrize(("round_index", "multiplier"), [(7, 1), (8, 2), (9, 2), (10, 2)])
def test_double_face_rounds_double_the_penalties_of_the_jack_queen_king_rounds(
    round_index, multiplier
):
    hands = ["9C 8D 2S", "5H 6H 4C"]  # no J, Q, K, so nothing wild: 19 and 15
    for double in (False, True):
        rules = Rules(double_face_rounds=double, turn_limit=1)
        state = make_state(hands, rules=rules, round_index=round_index)
        finish_round(state)
        factor = multiplier if double else 1
        result = state.round_results[0]
        assert result.multiplier == factor
        assert result.penalties == [19 * factor, 15 * factor]
        assert state.totals == [19 * factor, 15 * factor]


# -- redemption ------------------------------------------------------------------------------------


def redemption_state() -> GameState:
    rules = Rules(redemption=True)
    state = make_state(
        ["5H 6H KS", "8H QC QD QS", "9H KD", "AS 2D 4C"],
        rules=rules,
        stock="2C 4D JD 9S",
        discard="JC 7H",
    )
    state.apply(Draw(0, "discard"))
    state.apply(GoOut(0, Card(13, "S")))
    return state


def test_redemption_last_turn_players_lay_down_and_lay_off():
    state = redemption_state()
    state.apply(Draw(1, "stock"))  # the 9S
    record = state.apply(Discard(1, Card(9, "S")))
    assert [sorted(m) for m in record.melds] == [sorted(cards("QC QD QS"))]
    assert [(lay.seat, lay.meld, lay.cards) for lay in record.layoffs] == [(0, 0, (Card(8, "H"),))]
    assert sorted(state.shown_melds[0][0]) == sorted(cards("5H 6H 7H 8H"))
    assert [sorted(m) for m in state.shown_melds[1]] == [sorted(cards("QC QD QS"))]
    # the 9H now fits only the run, as extended by seat 1
    state.apply(Draw(2, "stock"))
    record = state.apply(Discard(2, Card(11, "D")))  # the JD it drew
    assert [(lay.seat, lay.meld, lay.cards) for lay in record.layoffs] == [(0, 0, (Card(9, "H"),))]
    state.apply(Draw(3, "stock"))
    state.apply(Discard(3, Card(4, "D")))
    result = state.round_results[0]
    assert result.penalties == [0, 0, 10, 7]  # seat 1 is left with no cards: 0
    assert sorted(result.seats[0].melds[0]) == sorted(cards("5H 6H 7H"))  # its own cards
    assert result.seats[1].layoffs[0].cards == (Card(8, "H"),)


def test_without_redemption_nothing_is_laid_off():
    state = make_state(
        ["5H 6H KS", "8H QC QD QS", "9H KD", "AS 2D 4C"],
        stock="2C 4D JD 9S",
        discard="JC 7H",
    )
    state.apply(Draw(0, "discard"))
    state.apply(GoOut(0, Card(13, "S")))
    finish_round(state)
    assert state.round_results[0].penalties == [0, 8, 19, 7]
    assert all(not seat.layoffs for seat in state.round_results[0].seats)


def test_redemption_state_round_trips_mid_last_turns():
    state = redemption_state()
    state.apply(Draw(1, "stock"))
    state.apply(Discard(1, Card(9, "S")))
    copy = GameState.from_dict(state.to_dict())
    assert copy.to_dict() == state.to_dict()
    finish_round(state)
    finish_round(copy)
    assert copy.to_dict() == state.to_dict()
