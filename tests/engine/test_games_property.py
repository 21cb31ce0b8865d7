"""Whole random games, every variant, 2 to 8 players, and states built to corner a player: the
invariants hold at every step."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.actions import Discard, Draw, GoOut, action_from_dict
from games.engine.bots import get_bot
from games.engine.cards import JOKER_RANK, JOKER_SUIT, Card, make_deck
from games.engine.melds import is_meld
from games.engine.results import MoveRecord
from games.engine.rules import ROUND_SCHEDULES, Rules
from games.engine.state import GameState

pytestmark = pytest.mark.engine

rules_strategy = st.builds(
    Rules,
    aces_high=st.booleans(),
    face_cards_by_rank=st.booleans(),
    wild_penalty=st.sampled_from([None, 15]),
    max_wilds_per_meld=st.sampled_from([None, 1]),
    all_wild_melds=st.booleans(),
    jokers=st.booleans(),
    rounds=st.sampled_from(sorted(ROUND_SCHEDULES)),
    double_face_rounds=st.booleans(),
    redemption=st.booleans(),
    # short limits keep random play short; long ones let medium bots go out (last turns, lay-offs)
    turn_limit=st.sampled_from([1, 2, 5, 30]),
)
game_strategy = st.tuples(
    rules_strategy,
    st.integers(2, 8),
    st.text("abcdefghij0123456789", min_size=1, max_size=8),
    st.lists(st.sampled_from(["random", "easy", "medium", "medium"]), min_size=8, max_size=8),
)
few = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(
    rules: Rules,
    players: int,
    seed: str,
    names: list[str],
    each_step: Callable[[GameState, MoveRecord | None], None] = lambda state, record: None,
) -> tuple[GameState, list, list[MoveRecord]]:
    state = GameState.new(rules, players, seed)
    bots = [get_bot(name) for name in names[:players]]
    rng = random.Random(seed)
    actions, records = [], []
    each_step(state, None)
    while not state.is_over:
        seat = state.to_move
        action = bots[seat].choose(state.view(seat), rng)
        assert action in state.legal_actions()
        records.append(state.apply(action))
        actions.append(action)
        each_step(state, records[-1])
    return state, actions, records


def full_deck(rules: Rules, players: int) -> Counter:
    return Counter(card.token for card in make_deck(rules.deck_count(players), rules.jokers))


def on_table(state: GameState) -> Counter:
    cards = [*state.stock, *state.discard_pile, *(card for hand in state.hands for card in hand)]
    return Counter(card.token for card in cards)


@few
@given(game_strategy)
def test_cards_are_conserved_at_every_step(game):
    rules, players, seed, names = game
    deck = full_deck(rules, players)

    def conserved(state, record):
        assert on_table(state) == deck
        for melds in state.shown_melds:  # lay-offs (redemption) keep every shown meld legal
            assert all(is_meld(meld, state.wild_rank, rules) for meld in melds)
        if not state.is_over:
            sizes = [len(hand) for hand in state.hands]
            expected = [state.hand_size] * players
            if state.phase == "discard":
                expected[state.to_move] += 1
            assert sizes == expected

    play(rules, players, seed, names, conserved)


def hidden_tokens(state: GameState) -> tuple[set[str], list[set[str]]]:
    """Tokens nobody may see (the stock, the discard pile below its top), and each seat's hand:
    less whatever has been shown (melds, the card just taken from the discard pile, and every
    card the table saw turned up, thrown or taken this round: the pile log of the views)."""
    shown = {card for melds in state.shown_melds for meld in melds for card in meld}
    shown.add(state.drawn_from_discard)
    shown.update(card for _seat, _kind, card in state.pile_events)
    unseen = {c.token for c in (*state.stock, *state.discard_pile[:-1]) if c not in shown}
    hands = [{c.token for c in hand if c not in shown} for hand in state.hands]
    return unseen, hands


def strings_in(data) -> set[str]:
    """Every string anywhere in a JSON-like structure (keys included)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set(data) | {s for value in data.values() for s in strings_in(value)}
    if isinstance(data, list | tuple):
        return {s for item in data for s in strings_in(item)}
    return set()


@pytest.mark.hidden_info
@pytest.mark.slow
@few
@given(game_strategy)
def test_a_view_never_holds_a_card_its_viewer_may_not_see(game):
    rules, players, seed, names = game

    def check_views(state, record):
        unseen, hands = hidden_tokens(state)
        for viewer in [None, *range(players)]:
            data = state.view(viewer).to_dict()
            data.pop("round_results")  # finished rounds, all revealed (the same faces recur)
            data = json.loads(json.dumps(data))
            hidden = unseen.union(*(hand for seat, hand in enumerate(hands) if seat != viewer))
            leaked = strings_in(data) & hidden
            assert not leaked, (viewer, leaked)
            if record is not None and record.source == "stock" and viewer != record.seat:
                assert record.card.token not in strings_in(record.public_for(viewer))

    play(rules, players, seed, names, check_views)


@pytest.mark.slow
@few
@given(game_strategy)
def test_replay_equals_live_play_and_states_round_trip(game):
    rules, players, seed, names = game

    def round_trips(state, record):
        data = json.loads(json.dumps(state.to_dict()))
        assert GameState.from_dict(data).to_dict() == state.to_dict()

    state, actions, _ = play(rules, players, seed, names, round_trips)
    logged = [action_from_dict(json.loads(json.dumps(a.to_dict()))) for a in actions]
    assert GameState.replay(rules, players, seed, logged).to_dict() == state.to_dict()
    assert state.action_count == len(actions)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_strategy)
def test_random_games_finish_and_score_consistently(game):
    rules, players, seed, names = game
    state, _, records = play(rules, players, seed, names)
    assert state.is_over and state.phase == "game_over" and state.to_move is None
    assert len(state.round_results) == rules.round_count
    assert [r.hand_size for r in state.round_results] == list(rules.hand_sizes)
    totals = [sum(r.penalties[seat] for r in state.round_results) for seat in range(players)]
    assert state.totals == totals
    assert state.winners == [s for s in range(players) if totals[s] == min(totals)]
    for result in state.round_results:
        multiplier = rules.round_multiplier(result.wild_rank)
        assert result.multiplier == multiplier
        for seat, seat_result in enumerate(result.seats):
            assert seat_result.penalty % multiplier == 0
            parts = [c for meld in seat_result.melds for c in meld] + list(seat_result.deadwood)
            parts += [c for layoff in seat_result.layoffs for c in layoff.cards]
            assert sorted(parts) == sorted(seat_result.hand)
            if seat == result.went_out:
                assert seat_result.penalty == 0
            if not rules.redemption:
                assert not seat_result.layoffs
    assert_last_turns_go_once_round_the_table(records, players)


def assert_last_turns_go_once_round_the_table(records: list[MoveRecord], players: int) -> None:
    went_out = None
    turns: list[int] = []
    for record in records:
        if record.type == "go_out":
            assert went_out is None, "a second player went out in one round"
            went_out, turns = record.seat, []
        elif record.type == "discard" and went_out is not None:
            turns.append(record.seat)
        if record.round_ended:
            if went_out is not None:
                assert turns == [(went_out + k) % players for k in range(1, players)]
            went_out = None


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 4), st.text("abcdef0123", min_size=1, max_size=6), st.booleans())
def test_long_rounds_reshuffle_the_stock_and_still_conserve_and_replay(players, seed, jokers):
    rules = Rules(jokers=jokers, turn_limit=60)
    state = GameState.new(rules, players, seed)
    deck, bot, rng = full_deck(rules, players), get_bot("random"), random.Random(seed)
    actions, reshuffles = [], 0
    while state.round_index == 0:
        action = bot.choose(state.view(state.to_move), rng)
        if isinstance(action, GoOut):  # keep the round going until the stock runs out
            action = Discard(action.seat, action.card)
        if isinstance(action, Draw) and state.is_legal(Draw(action.seat, "stock")):
            action = Draw(action.seat, "stock")
        reshuffles += state.apply(action).reshuffled
        actions.append(action)
        assert on_table(state) == deck
    assert state.round_results[0].went_out is None
    assert reshuffles > 0
    assert GameState.replay(rules, players, seed, actions).to_dict() == state.to_dict()


# -- a live game always has a move, and every move it offers is accepted ---------------------------


def assert_live(state: GameState) -> None:
    """The game is over, or the seat to move has a legal action; legal_actions and apply agree
    (every action offered is accepted, on a copy; every card refused is refused by apply too)."""
    if state.is_over:
        assert state.legal_actions() == []
        return
    legal = state.legal_actions()
    assert legal, f"no legal action: {state!r} {state.to_dict()}"
    data = {**state.to_dict(), "round_results": []}  # finished rounds are frozen: shared
    for action in legal:
        copy = GameState.from_dict(data)
        copy.round_results = list(state.round_results)
        copy.apply(action)
    seat = state.to_move
    offered = [Draw(seat, source) for source in ("stock", "discard")]
    if state.phase == "discard":
        hand = state.hands[seat]
        offered = [Discard(seat, card) for card in hand] + [GoOut(seat, card) for card in hand]
    assert [a for a in offered if state.is_legal(a)] == [a for a in offered if a in legal]


live_rules = rules_strategy.map(lambda rules: replace(rules, turn_limit=min(rules.turn_limit, 5)))


def most_turns_in_a_round(rules: Rules, players: int) -> int:
    """The turn limit, then the last turns of all but the player who went out."""
    return rules.turn_limit * players + players - 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(live_rules, st.integers(2, 8), st.text("abcdef0123", min_size=1, max_size=6), st.data())
def test_a_live_game_always_has_a_legal_action(rules, players, seed, data):
    names = data.draw(st.lists(st.sampled_from(["random", "easy"]), min_size=8, max_size=8))
    most_actions = 2 * rules.round_count * most_turns_in_a_round(rules, players)

    def live_and_finite(state, record):
        assert_live(state)
        assert state.action_count <= most_actions  # the game finishes

    state, _, _ = play(rules, players, seed, names, live_and_finite)
    assert state.is_over and len(state.round_results) == rules.round_count


@st.composite
def extreme_states(draw) -> GameState:
    """A state built to corner the seat to move: its hand is all jokers, all one face (as many
    decks as it takes), or all wilds; the discard top (and the stock's top) is that same face;
    the stock may be empty, with or without cards to reshuffle; last turns may be under way; the
    seat may have drawn already."""
    rules = draw(live_rules.map(lambda rules: replace(rules, turn_limit=min(rules.turn_limit, 2))))
    players = draw(st.integers(2, 8))
    state = GameState.new(rules, players, draw(st.text("abc123", min_size=1, max_size=4)))
    state.round_index = draw(st.integers(0, rules.round_count - 1))
    state._deal()
    seat = state.to_move = draw(st.integers(0, players - 1))
    kind = draw(st.sampled_from(["jokers", "one face", "wilds", "wilds and jokers"]))
    suit = draw(st.sampled_from("SHDC"))
    rank = state.wild_rank if kind.startswith("wilds") else draw(st.integers(1, 13))
    copies = iter(range(10, 100))  # copy numbers no deck uses: tokens stay unique

    def card() -> Card:
        if kind == "jokers" or (kind == "wilds and jokers" and draw(st.booleans())):
            return Card(JOKER_RANK, JOKER_SUIT, next(copies))
        if kind == "one face":
            return Card(rank, suit, next(copies))
        return Card(rank, draw(st.sampled_from("SHDC")), next(copies))

    state.hands[seat] = [card() for _ in range(state.hand_size)]
    face = draw(st.sampled_from(state.hands[seat]))
    top = Card(face.rank, face.suit, 99)
    stock = draw(st.sampled_from(["full", "empty", "nothing to reshuffle"]))
    if stock == "full":
        state.stock.append(card())
    elif stock == "empty":
        state.discard_pile[:0], state.stock = state.stock, []
    else:
        state.discard_pile, state.stock = [], []
    state.discard_pile.append(top)
    if draw(st.booleans()):
        state.went_out = (seat + draw(st.integers(1, players - 1))) % players
    source = draw(st.sampled_from([None, "discard", "stock"]))
    if source is not None and state.is_legal(Draw(seat, source)):
        state.apply(Draw(seat, source))
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(extreme_states(), st.randoms(use_true_random=False))
def test_a_cornered_seat_still_has_a_legal_action_and_the_round_ends(state, rng):
    round_index, last_round = state.round_index, state.round_index + 1 == state.round_count
    most_actions = state.action_count + 2 * most_turns_in_a_round(state.rules, state.players)
    assert_live(state)
    while state.round_index == round_index and not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        assert_live(state)
        assert state.action_count <= most_actions  # the round ends
    assert state.is_over == last_round
