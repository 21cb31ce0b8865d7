"""The table, history and replay read aloud and work from the keyboard: every card has a spoken
name ("8 of hearts, wild"), card groups are named, the card that may not go back says why, and
the forms bring the keyboard back to where the next move is."""

import random
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.engine import GameState, Rules
from games.engine.cards import Card
from games.models import Game
from games.presentation import card_info
from tests.factories import UserFactory, play_on, started_game

pytestmark = pytest.mark.django_db
VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr", "area", "col"}
RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def find_all(self, test):
        return [node for node in self.walk() if test(node)]

    def text(self, spoken=False):
        """The text inside; spoken=True leaves out what is aria-hidden."""
        if spoken and self.attrs.get("aria-hidden") == "true":
            return ""
        return "".join(c.text(spoken) if isinstance(c, Node) else c for c in self.children)

    def classes(self):
        return (self.attrs.get("class") or "").split()


class Tree(HTMLParser):
    def __init__(self):
        super().__init__()
        self.root = self.node = Node("root", {}, None)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.node)
        self.node.children.append(node)
        if tag not in VOID:
            self.node = node

    def handle_endtag(self, tag):
        node = self.node
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.node = node.parent

    def handle_data(self, data):
        self.node.children.append(data)


def parse(html: str) -> Node:
    tree = Tree()
    tree.feed(html)
    return tree.root


def spoken_name(token: str) -> str:
    """The words a card's accessible name must hold, from its token alone."""
    face = token.split(".")[0]
    if face == "JK":
        return "joker"
    rank, suit = face[:-1], face[-1]
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}"


def assert_cards_spoken(html: str) -> int:
    """Every card is an image named in words, wilds say so, and its printed face is hidden from
    screen readers (so "8" or "A" is never read alone). Returns how many cards were checked."""
    cards = parse(html).find_all(lambda n: "data-card" in n.attrs)
    for card in cards:
        label = card.attrs.get("aria-label") or ""
        assert card.attrs.get("role") == "img", card.attrs
        assert label.startswith(spoken_name(card.attrs["data-card"])), label
        wild = "wild" in card.classes()
        assert label.endswith(", wild") == wild, label
        assert card.text(spoken=True).strip() == "", card.attrs
    return len(cards)


def assert_groups_named(html: str) -> int:
    groups = parse(html).find_all(lambda n: {"meld", "layoff", "deadwood"} & set(n.classes()))
    for group in groups:
        assert group.attrs.get("role") == "group" and group.attrs.get("aria-label"), group.attrs
    return len(groups)


def mover_of(game, by_seat):
    return by_seat[game.to_move_seat]


def rig_wild_into_hand(game) -> Card:
    """Swap a wild from the stock into the hand of the seat to move; returns it."""
    state = GameState.from_dict(game.state)
    hand = state.hands[state.to_move]
    wild = next(c for c in state.stock if c.rank == state.wild_rank)
    i = state.stock.index(wild)
    state.stock[i], hand[0] = hand[0], wild
    game.state = state.to_dict()
    game.save(update_fields=["state"])
    return wild


def test_card_names_are_words_and_say_wild():
    assert card_info(Card(1, "S")).name == "ace of spades"
    assert card_info(Card(11, "C"), wild_rank=3).name == "jack of clubs"
    assert card_info(Card(12, "H"), wild_rank=12).name == "queen of hearts, wild"
    assert card_info(Card(8, "D"), wild_rank=8).name == "8 of diamonds, wild"
    assert card_info(Card(0, "J")).name == "joker, wild"


def test_hand_and_discard_pile_buttons_name_their_cards(client, duel):
    game, by_seat = duel
    wild = rig_wild_into_hand(game)
    client.force_login(mover_of(game, by_seat))
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert assert_cards_spoken(html) >= 4
    page = parse(html)
    state = GameState.from_dict(game.state)
    top = state.discard_pile[-1]
    name = spoken_name(top.token) + (", wild" if top.rank == state.wild_rank else "")
    (pile,) = page.find_all(lambda n: n.attrs.get("value") == "discard")
    # Its name: what it shows, then what it does (axe: the name holds the visible words).
    said = " ".join(pile.text(spoken=True).split())
    assert said == f"Discard : Take the {name} from the discard pile"
    # Drawing, then the discard buttons: the wild says so.
    html = client.post(
        reverse("move_draw", args=[game.pk]), {"source": "stock", "version": game.version},
        HTTP_HX_REQUEST="true",
    ).content.decode()  # fmt: skip
    (button,) = parse(html).find_all(  # the hand's button (a "Go out" one may name it too)
        lambda n: "hand-card" in n.classes() and n.attrs.get("value") == wild.token
    )
    assert button.attrs["aria-label"] == f"Discard the {spoken_name(wild.token)}, wild"


def test_the_card_just_taken_is_greyed_and_says_why(client, duel):
    game, by_seat = duel
    taken = GameState.from_dict(game.state).discard_pile[-1]
    client.force_login(mover_of(game, by_seat))
    response = client.post(
        reverse("move_draw", args=[game.pk]), {"source": "discard", "version": game.version},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    html = response.content.decode()
    buttons = parse(html).find_all(lambda n: "hand-card" in n.classes())
    (held,) = [b for b in buttons if b.attrs["value"] == taken.token]
    assert "held" in held.classes() and held.attrs["aria-disabled"] == "true"
    assert held.attrs["type"] == "button" and "name" not in held.attrs  # never sent as a discard
    assert "you just took it" in held.attrs["aria-label"]
    assert held.attrs["aria-label"].startswith(spoken_name(taken.token))
    assert "taken" in held.text()  # a word on the card, not the grey alone
    assert f"You just took the {spoken_name(taken.token)}" in html
    others = [b for b in buttons if b is not held]
    assert others and all(b.attrs["type"] == "submit" and "held" not in b.classes() for b in others)


def test_a_wild_and_the_new_card_are_marked_in_words_not_colour_alone(client, duel):
    game, by_seat = duel
    wild = rig_wild_into_hand(game)
    client.force_login(mover_of(game, by_seat))
    html = client.post(
        reverse("move_draw", args=[game.pk]), {"source": "stock", "version": game.version},
        HTTP_HX_REQUEST="true",
    ).content.decode()  # fmt: skip
    buttons = parse(html).find_all(lambda n: "hand-card" in n.classes())
    (new,) = [b for b in buttons if "just-drawn" in b.classes()]
    assert "new" in new.text() and "(just drawn)" in new.attrs["aria-label"]
    (wild_button,) = [b for b in buttons if b.attrs["value"] == wild.token]
    assert "wild" in wild_button.text()
    assert all("new" not in b.text() for b in buttons if b is not new)


def test_keyboard_lands_where_the_next_move_is(client, duel):
    game, by_seat = duel
    table = reverse("game", args=[game.pk])
    client.force_login(mover_of(game, by_seat))
    page = parse(client.get(table).content.decode())
    forms = {f.attrs["class"]: f.attrs["action"] for f in page.find_all(lambda n: n.tag == "form")}
    assert forms["pile-form"].endswith("/draw/#hand") and forms["sorts"].endswith("/sort/#hand")
    assert forms["hand"].endswith("/discard/#table")
    (focus,) = page.find_all(lambda n: "data-focus" in n.attrs)
    assert focus.attrs["value"] == "stock"  # my turn to draw: the stock
    # Nothing to discard yet: the cards are not submit buttons, and one of them is a tab stop.
    cards = page.find_all(lambda n: "hand-card" in n.classes())
    assert all(c.attrs["type"] == "button" for c in cards)
    assert [c.attrs.get("tabindex") for c in cards] == [None] + ["-1"] * (len(cards) - 1)
    assert page.find_all(lambda n: n.attrs.get("id") == "hand")
    (keys,) = page.find_all(lambda n: "keys" in n.classes())
    assert "Alt" in keys.text() and "hidden" in keys.attrs
    (live,) = page.find_all(lambda n: n.attrs.get("id") == "announce")
    assert live.attrs["aria-live"] == "polite" and "%(place)s" in live.attrs["data-moved"]
    # After drawing: the card just drawn.
    html = client.post(
        reverse("move_draw", args=[game.pk]), {"source": "stock", "version": game.version},
        HTTP_HX_REQUEST="true",
    ).content.decode()  # fmt: skip
    (focus,) = parse(html).find_all(lambda n: "data-focus" in n.attrs)
    assert "just-drawn" in focus.classes() and focus.attrs["type"] == "submit"
    # Not my turn: no card to play, and the focus goes to the status line (no marker).
    client.force_login(by_seat[1 - game.to_move_seat])
    page = parse(client.get(table).content.decode())
    assert not page.find_all(lambda n: "data-focus" in n.attrs)


@pytest.mark.slow  # a whole game
def test_every_card_in_a_whole_game_is_spoken_and_groups_are_labelled(client, duel):
    game, by_seat = duel
    rng = random.Random(7)
    checked = groups = 0
    labelled = False
    while game.status == Game.Status.ACTIVE:  # the table every few moves, as the mover sees it
        play_on(game, rng=rng, until=lambda g, v=game.version + 17: g.version >= v)
        client.force_login(by_seat[game.to_move_seat or 0])
        html = client.get(reverse("game", args=[game.pk])).content.decode()
        checked += assert_cards_spoken(html)
        groups += assert_groups_named(html)
        summary = parse(html).find_all(lambda n: "round-summary" in n.classes())
        if summary:
            text = summary[0].text()
            assert "Melds:" in text or "Left over:" in text
            labelled = True
    assert labelled and groups
    assert game.status == Game.Status.FINISHED
    history = client.get(reverse("game_history", args=[game.pk])).content.decode()
    rows = parse(history).find_all(lambda n: "text" in n.classes())
    lines = [row.text() for row in rows]
    assert not any(symbol in line for line in lines for symbol in "♠♥♦♣")
    assert (
        sum(bool(re.search(r" (of (spades|hearts|diamonds|clubs)|joker)", s)) for s in lines) > 50
    )
    assert any(" (wild)" in line for line in lines)
    replay = reverse("game_replay", args=[game.pk])
    for step in (0, 1, game.version // 2, game.version):
        html = client.get(replay, {"step": step}).content.decode()
        checked += assert_cards_spoken(html)
        last = parse(html).find_all(lambda n: n.tag == "strong")
        assert not any(symbol in n.text() for n in last for symbol in "♠♥♦♣")
    assert checked > 200  # hundreds of cards (a game's length varies with its random seed)


def test_round_summary_and_hint_say_which_cards_are_melds_and_which_are_left_over(client):
    users = [UserFactory(), UserFactory()]
    game = started_game(users, rules=Rules())
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    play_on(game, rng=random.Random(3), until=lambda g: g.state["round_index"] >= 2)
    client.force_login(mover_of(game, by_seat))
    page = parse(client.get(reverse("game", args=[game.pk])).content.decode())
    (summary,) = page.find_all(lambda n: "round-summary" in n.classes())
    for row in summary.find_all(lambda n: n.tag == "tr"):
        for label in row.find_all(lambda n: "group-label" in n.classes()):
            group = label.parent.find_all(lambda n: n.attrs.get("role") == "group")
            kind = {"Melds:": "meld", "Left over:": "left over", "Laid off:": "laid off"}
            assert group and all(g.attrs["aria-label"] == kind[label.text()] for g in group)
    assert "Left over:" in summary.text() or "Melds:" in summary.text()
    (hint,) = page.find_all(lambda n: "hint" in n.classes())
    assert {"Melds:", "Left over:"} & {n.text() for n in hint.find_all(lambda n: n.tag == "span")}


def test_the_last_rounds_summary_is_open_until_each_player_has_had_a_turn(client, duel):
    game, by_seat = duel
    rng = random.Random(11)

    def summary_open() -> bool:
        client.force_login(by_seat[0])
        html = client.get(reverse("game", args=[game.pk])).content.decode()
        (summary,) = parse(html).find_all(lambda n: "round-summary" in n.classes())
        return "open" in summary.attrs

    play_on(game, rng=rng, until=lambda g: g.round_index == 1)
    assert summary_open()  # the round has just begun
    turns = lambda g: GameState.from_dict(g.state).turns_played  # noqa: E731
    play_on(game, rng=rng, until=lambda g: turns(g) == 1)
    assert game.round_index == 1 and summary_open()  # one of two players has played
    play_on(game, rng=rng, until=lambda g: turns(g) == 2)
    assert game.round_index == 1 and not summary_open()  # each has: it folds away


def test_a_game_the_site_seated_may_be_watched_by_anyone_from_its_standings(client):
    """League and tournament pages link every game of a division or round: those links open."""
    from games import services
    from games.engine import Rules

    game = services.game_create_seated(
        players=[UserFactory(), UserFactory()], rules=Rules(), time_per_move_days=3
    )
    client.force_login(UserFactory())
    page = client.get(reverse("game", args=[game.pk]))
    assert page.status_code == 200 and "my-hand" not in page.content.decode()
