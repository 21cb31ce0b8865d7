"""The order of the hand on the table: a sort by suit or by rank holds for the whole game; an
order of the player's own (a drag, or Alt + an arrow) holds for the round it was made in, and a
new round's hand comes sorted as the player last chose, with that sort's chip on."""

import re

import pytest
from django.urls import reverse

from games.engine import GameState
from games.engine.cards import Card
from tests.factories import play_on

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def table(client, game) -> str:
    return client.get(reverse("game", args=[game.pk])).content.decode()


def hand_shown(page: str) -> list[str]:
    """The cards of the hand form, in the order the page shows them."""
    form = re.search(r'<form[^>]*class="hand".*?</form>', page, re.S)
    assert form, "no hand on the table"
    return re.findall(r'data-card="([^"]+)"', form.group())


def chip_on(page: str) -> str:
    """The sort chip shown as chosen: suit, rank, or mine (the player's own order)."""
    sorts = re.search(r'<form[^>]*class="sorts".*?</form>', page, re.S)
    assert sorts
    on = re.findall(r'class="chip on"[^>]*>\s*([^<\s]+)', sorts.group())
    assert len(on) == 1, on
    return on[0]


def by_suit(tokens, wild_rank):
    return sorted(tokens, key=lambda t: by_key(Card.from_token(t), wild_rank, suit_first=True))


def by_rank(tokens, wild_rank):
    return sorted(tokens, key=lambda t: by_key(Card.from_token(t), wild_rank, suit_first=False))


def by_key(card, wild_rank, *, suit_first):
    wild = card.is_joker or card.rank == wild_rank
    suit = "SHCDJ".index(card.suit)
    return (wild, suit, card.rank) if suit_first else (wild, card.rank, suit)


def my_hand(game, seat) -> tuple[list[str], int]:
    game.refresh_from_db()
    state = GameState.from_dict(game.state)
    view = state.view(seat)
    return [card.token for card in view.hand], view.wild_rank


@pytest.mark.parametrize("chosen", ["suit", "rank"])
def test_a_new_round_comes_sorted_as_last_chosen_after_a_drag(client, duel, chosen):
    game, by_seat = duel
    me = by_seat[0]
    client.force_login(me)
    client.post(reverse("hand_sort", args=[game.pk]), {"sort": chosen}, **HTMX)
    hand, _wild = my_hand(game, 0)
    dragged = hand[::-1]  # an order of the player's own, as a drag saves it
    client.post(reverse("hand_sort", args=[game.pk]), {"sort": "manual", "order": dragged}, **HTMX)
    page = table(client, game)
    assert hand_shown(page) == dragged and chip_on(page) == "mine"

    play_on(game, until=lambda g: g.round_index == 1)
    hand, wild = my_hand(game, 0)
    page = table(client, game)
    sort = by_suit if chosen == "suit" else by_rank
    assert hand_shown(page) == sort(hand, wild), "the new round's hand is not sorted"
    assert chip_on(page) == chosen


def test_the_own_order_holds_in_its_round_with_a_new_card_at_the_end(client, duel):
    game, by_seat = duel
    seat = game.to_move_seat
    client.force_login(by_seat[seat])
    hand, _wild = my_hand(game, seat)
    dragged = hand[1:] + hand[:1]
    client.post(reverse("hand_sort", args=[game.pk]), {"sort": "manual", "order": dragged}, **HTMX)
    client.post(reverse("move_draw", args=[game.pk]), {"version": game.version, "source": "stock"})
    now, _wild = my_hand(game, seat)
    (drawn,) = set(now) - set(hand)
    page = table(client, game)
    assert hand_shown(page) == [*dragged, drawn] and chip_on(page) == "mine"


def test_a_sort_chosen_after_a_drag_replaces_the_own_order(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[0])
    hand, wild = my_hand(game, 0)
    client.post(reverse("hand_sort", args=[game.pk]), {"sort": "manual", "order": hand[::-1]})
    client.post(reverse("hand_sort", args=[game.pk]), {"sort": "rank"})
    page = table(client, game)
    assert hand_shown(page) == by_rank(hand, wild) and chip_on(page) == "rank"


def test_an_own_order_without_cards_is_refused(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[0])
    response = client.post(reverse("hand_sort", args=[game.pk]), {"sort": "manual"}, **HTMX)
    assert response.status_code == 400
    assert chip_on(table(client, game)) == "suit"
