"""Building blocks that the engine's test modules share: hands and states built by hand, turns
passed, the variants as a hypothesis strategy, and a game played part of the way by bots."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from games.engine.actions import Discard, Draw
from games.engine.bots import get_bot
from games.engine.cards import Card
from games.engine.rules import ROUND_SCHEDULES, Rules
from games.engine.state import GameState

rules_strategy = st.builds(
    Rules,
    aces_high=st.booleans(),
    face_cards_by_rank=st.booleans(),
    wild_penalty=st.sampled_from([None, 15, 0]),
    max_wilds_per_meld=st.sampled_from([None, 1]),
    all_wild_melds=st.booleans(),
    jokers=st.booleans(),
    rounds=st.sampled_from(sorted(ROUND_SCHEDULES)),
    double_face_rounds=st.booleans(),
    redemption=st.booleans(),
    # short limits keep random play short; long ones let medium bots go out (last turns, lay-offs)
    turn_limit=st.sampled_from([1, 2, 5, 30]),
)


def cards(text: str) -> list[Card]:
    """Cards by token: '7H 7H.1 JK.1' (a token names one physical card, copy included)."""
    return [Card.from_token(token) for token in text.split()]


def make_state(
    hands: list[str],
    *,
    rules: Rules | None = None,
    stock: str | None = None,
    discard: str | None = None,
    to_move: int = 0,
    round_index: int = 0,
    seed: str = "test",
) -> GameState:
    """A state in the draw phase of `round_index` with the given hands (and stock/discard pile,
    top card last), `to_move` to play. Cards need not add up to a deck."""
    state = GameState.new(rules or Rules(), len(hands), seed)
    if round_index:
        state.round_index = round_index
        state._deal()
    state.hands = [cards(hand) for hand in hands]
    if stock is not None:
        state.stock = cards(stock)
    if discard is not None:
        state.discard_pile = cards(discard)
    state.to_move = to_move
    return state


def pass_turn(state: GameState) -> None:
    """Draw (from the stock when possible) and discard the card drawn, or another if that card
    may not be thrown back."""
    seat = state.to_move
    source = "stock" if state.is_legal(Draw(seat, "stock")) else "discard"
    drawn = state.apply(Draw(seat, source)).card
    if state.is_legal(Discard(seat, drawn)):
        state.apply(Discard(seat, drawn))
    else:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Discard)))


def finish_round(state: GameState) -> None:
    round_index = state.round_index
    while state.round_index == round_index and not state.is_over:
        pass_turn(state)


def advance(state: GameState, steps: int, seed: str) -> int:
    """Play up to `steps` actions of medium and random bots (a mix reaches every phase); the
    number played."""
    rng = random.Random(seed)
    names = ["medium", "random"]
    for step in range(steps):
        if state.is_over:
            return step
        bot = get_bot(names[step % 3 == 0])
        state.apply(bot.choose(state.view(state.to_move), rng))
    return steps


def mid_round_view(seed="same", steps=9, players=3):
    """A three-player game in its nine-card round, a few bot moves in."""
    state = GameState.new(Rules(), players, seed)
    state.round_index = 6  # nine cards: enough choice for the search to matter
    state._deal()
    advance(state, steps, seed)
    return state
