"""Playing at the table in the browser: whose turn it is and what to play come from the database
(the test's knowledge), the move itself is made by clicking, as a person would."""

import random
import time

from games.engine import GameState
from games.engine.bots import get_bot
from games.models import Game

CHOOSER = get_bot("medium")  # the medium bot: rounds end soonest


def fresh(game) -> Game:
    game.refresh_from_db()
    return game


def chosen_action(game):
    """What the medium bot would play for the seat to move: a move that gets rounds finished."""
    state = GameState.from_dict(game.state)
    return CHOOSER.choose(state.view(state.to_move), random.Random(f"e2e:{game.version}"))


def version_on(page) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def wait_until(page, predicate, timeout=20.0, what="the page to catch up"):
    """Poll `predicate` while letting Playwright run (no fixed sleep stands in for a condition)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        page.wait_for_timeout(50)


def wait_for_version(page, at_least: int):
    wait_until(page, lambda: version_on(page) >= at_least, what=f"version {at_least}")


def click_action(page, action) -> None:
    kind = action.to_dict()["type"]
    if kind == "draw":
        page.locator(f"#table .pile.{action.source}").click()
    elif kind == "discard":
        page.locator(f"#table form.hand button[name=card][value='{action.card.token}']").click()
    else:
        page.locator(f"#table form.go-out button[value='{action.card.token}']").click()


def play_turn_by_clicking(page, game) -> list[str]:
    """The player to move draws, then discards or goes out, by clicking on their table once it
    says it is their turn (through its own polling). Returns the kinds of action clicked."""
    version = fresh(game).version
    page.locator(f"#table[data-version='{version}'] .your-turn").wait_for()
    kinds = []
    for step in (1, 2):
        action = chosen_action(fresh(game))
        kinds.append(action.to_dict()["type"])
        click_action(page, action)
        wait_for_version(page, version + step)  # the answer is the table after the move
    return kinds


def wait_for_the_worker(page, game, timeout=20.0):
    """A bot is to move (as `game` was last read): the worker plays its draw and discard, or ends
    the round. The seat is the one read before, not read again: the bot may be done already."""
    seat, round_index = game.to_move_seat, game.round_index

    def done():
        fresh(game)
        return game.to_move_seat != seat or game.round_index != round_index

    wait_until(page, done, timeout=timeout, what="the bot's move")
