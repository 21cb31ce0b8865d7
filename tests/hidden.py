"""What a seat may not see of a game's round (tests/test_hidden_info.py, the API's
tests/api/test_api_hidden_info.py): the cards a response to it must never carry."""

from games.engine import GameState
from games.engine.cards import Card
from games.engine.view import PILE_TURNED
from games.models import Game, Move


def may_see(game: Game, state: GameState, viewer: int | None) -> set[Card]:
    """What the viewer may know of this round's cards: their hand, the top discard, the melds
    shown, every card that went by in plain sight (turned up at the deal, taken from or thrown
    to the pile), and their own draws from the stock."""
    seen = {state.discard_pile[-1]} if state.discard_pile else set()
    seen |= {card for _seat, kind, card in state.pile_events if kind == PILE_TURNED}
    if viewer is not None:
        seen |= set(state.hands[viewer])
    for melds in state.shown_melds:
        seen |= {card for meld in melds for card in meld}
    for move in Move.objects.filter(game=game, round_index=state.round_index):
        record = move.record
        stock_draw = record["type"] == "draw" and record["source"] == "stock"
        if not stock_draw or record["seat"] == viewer:
            seen.add(Card.from_token(record["card"]))
    return seen


def hidden_from(game: Game, state: GameState, viewer: int | None) -> set[Card]:
    """The round's cards the viewer (a seat, or None for a spectator) may not know: the others'
    hands, the stock, the discard pile below its top, less what they saw go by."""
    hidden = {c for s, hand in enumerate(state.hands) if s != viewer for c in hand}
    hidden |= set(state.stock) | set(state.discard_pile[:-1])
    return hidden - may_see(game, state, viewer)
