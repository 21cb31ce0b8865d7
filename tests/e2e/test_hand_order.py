"""The hand's order in the browser: a card dragged in the first round makes the order the
player's own ("mine") for that round; the next round's hand comes sorted by suit (the sort last
chosen), with its chip on (it came in deal order under "mine"). On a phone's width, pointer
events as a mouse makes them."""

import pytest

from games.engine import GameState
from games.presentation import sort_hand
from tests.e2e.conftest import artifact
from tests.e2e.table import fresh, wait_until
from tests.factories import play_on, started_game

pytestmark = [pytest.mark.e2e, pytest.mark.worker]

HAND = "#table form.hand .hand-card"


def shown(page) -> list[str]:
    return page.locator(HAND).evaluate_all("cards => cards.map(c => c.value)")


def drag(page, card, after) -> None:
    """Press on `card`, move past the middle of `after`, let go: as a person drags."""
    start, end = card.bounding_box(), after.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] * 0.8, end["y"] + end["height"] / 2, steps=12)
    page.mouse.up()


def chip_on(page) -> str:
    return page.locator("#table .sorts .chip.on").inner_text().strip()


def test_a_drag_holds_for_its_round_and_the_next_round_comes_sorted(player):
    user, page = player(width=390, table_tour_done=True)
    game = started_game([user], seat_count=2, bots="medium")
    page.goto(f"/games/{game.pk}/")
    before = shown(page)
    cards = page.locator(HAND)
    drag(page, cards.nth(0), cards.nth(len(before) - 1))
    wait_until(page, lambda: chip_on(page) == "mine", what="the own order saved")
    assert shown(page) == [*before[1:], before[0]]
    page.reload()  # kept
    assert shown(page) == [*before[1:], before[0]] and chip_on(page) == "mine"

    seat = game.seats.get(user=user)

    play_on(fresh(game), level="medium", until=lambda g: g.round_index == 1)
    page.goto(f"/games/{game.pk}/")
    view = GameState.from_dict(fresh(game).state).view(seat.index)
    assert shown(page) == [c.token for c in sort_hand(view.hand, None, view.wild_rank)]
    assert chip_on(page) == "suit"
    page.screenshot(path=str(artifact("hand-new-round-after-drag-390px.png")), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(artifact("hand-new-round-after-drag-1280px.png")), full_page=True)
