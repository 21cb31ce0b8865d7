"""What a seat may not see of a game's round (tests/test_hidden_info.py, the API's
tests/api/test_api_hidden_info.py): the cards a response to it must never carry."""

from html.parser import HTMLParser

from games.engine import GameState
from games.engine.cards import Card
from games.engine.view import PILE_TURNED
from games.models import Game, Move
from games.presentation import card_info


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


VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr", "area", "col"}


class PresentOnly(HTMLParser):
    """Text and data-card tokens of the page, leaving out what is marked data-past (finished
    rounds: their hands were shown to everyone when the round ended)."""

    def __init__(self):
        super().__init__()
        self.stack: list[bool] = []
        self.text: list[str] = []
        self.tokens: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        past = bool(self.stack and self.stack[-1]) or "data-past" in attrs
        if not past and "data-card" in attrs:
            self.tokens.add(attrs["data-card"])
        if not past:
            self.text.extend(v for k, v in attrs.items() if v and k != "data-card")
        if tag not in VOID:
            self.stack.append(past)

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not (self.stack and self.stack[-1]):
            self.text.append(data)


def present(html: str) -> tuple[set[str], str]:
    parser = PresentOnly()
    parser.feed(html)
    return parser.tokens, " ".join(parser.text)


def check(response, game: Game, viewer: int | None, one_deck: bool) -> int:
    assert response.status_code < 500
    game.refresh_from_db()
    state = GameState.from_dict(game.state)
    if state.is_over:
        return 0
    hidden = hidden_from(game, state, viewer)
    tokens, text = present(response.content.decode())
    leaked = {c.token for c in hidden} & tokens
    assert not leaked, f"seat {viewer} was shown {leaked}"
    if one_deck:  # every face is one physical card: its label or name must not appear either
        labels = {card_info(c).label for c in hidden} | {card_info(c).name for c in hidden}
        leaked = {label for label in labels if label in text}
        assert not leaked, f"seat {viewer} read {leaked}"
    return len(hidden)
