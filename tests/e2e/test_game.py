"""A whole game in two browsers: Ada creates it, Bob joins by the invitation link, a bot takes the
last seat, and both people play whole rounds by clicking while the worker plays the bot; each sees
the other's moves without reloading. The rest of the game is then played through the services
(eleven rounds by clicking would take minutes), and Ada opens the replay, a profile and the
leaderboard."""

from urllib.parse import urlsplit

import pytest

from games.models import Game, Move
from tests.e2e.table import (
    fresh,
    play_turn_by_clicking,
    wait_for_the_worker,
    wait_for_version,
)
from tests.factories import play_on

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.slow]  # a whole game

CLICKED_ROUNDS = 2  # at least; more until a person has gone out by clicking (at most MAX)
MAX_CLICKED_ROUNDS = 4


def create_game(page) -> Game:
    """Three seats: the creator's, one left to a person, one for a medium bot."""
    page.goto("/games/new/")
    form = page.locator("form.new-game")
    form.locator("select[name=seat_count]").select_option("3")
    form.locator("select[name=seat_2]").select_option("")  # a person
    form.locator("select[name=seat_3]").select_option("medium")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    game_id = int(urlsplit(page.url).path.strip("/").split("/")[-1])
    return Game.objects.get(pk=game_id)


def submit(page, action_path: str) -> None:
    with page.expect_navigation():
        page.locator(f"main form[action='{action_path}'] button[type=submit]").click()


def test_two_people_and_a_bot_play_rounds_by_clicking_then_finish_and_look_back(player, settings):
    settings.LEADERBOARD_MIN_GAMES = 1
    ada, a = player(display_name="Ada")
    bob, b = player(display_name="Bob")

    game = create_game(a)
    invitation = a.locator("input.invite").input_value()
    b.goto(urlsplit(invitation).path)
    submit(b, f"/games/{game.pk}/join/")
    assert fresh(game).status == Game.Status.ACTIVE  # the last seat taken started it
    # The host's waiting room, polling, reloads itself into the table.
    for page in (a, b):
        page.locator("#table").wait_for()
        page.evaluate("window.e2eNotReloaded = true")  # gone if the page is ever reloaded

    pages = {ada.pk: a, bob.pk: b}
    users = {seat.index: seat.user for seat in game.seats.select_related("user")}
    clicked: list[str] = []
    went_out_by_click = False
    first_person_move_seen_by_the_other = False
    rounds = 0
    while rounds < CLICKED_ROUNDS or (not went_out_by_click and rounds < MAX_CLICKED_ROUNDS):
        round_index = fresh(game).round_index
        while fresh(game).round_index == round_index and game.status == Game.Status.ACTIVE:
            mover = users[game.to_move_seat]
            if mover.is_bot:
                wait_for_the_worker(a, game)
                continue
            before = game.version
            kinds = play_turn_by_clicking(pages[mover.pk], game)
            clicked += kinds
            went_out_by_click |= "go_out" in kinds
            if not first_person_move_seen_by_the_other:
                other = b if mover == ada else a
                wait_for_version(other, before + 2)  # its poll brought the move: no reload
                first_person_move_seen_by_the_other = True
        rounds += 1

    assert first_person_move_seen_by_the_other
    assert went_out_by_click, f"nobody went out by clicking in {rounds} rounds: {clicked}"
    assert {"draw", "discard", "go_out"} <= set(clicked)
    people = Move.objects.filter(game=game, by_bot=False)
    assert people.count() == len(clicked)  # every person's move so far was a click
    assert Move.objects.filter(game=game, by_bot=True).exists()  # and the worker played the bot
    for page in (a, b):
        assert page.evaluate("window.e2eNotReloaded === true")

    moves = play_on(game, level="medium")
    assert fresh(game).status == Game.Status.FINISHED and game.round_index == 10, moves
    # Both tables show the end without a reload.
    for page in (a, b):
        page.locator("#table .ranking").wait_for()
        assert page.evaluate("window.e2eNotReloaded === true")
        assert "Game over" in page.locator("#table .turn").inner_text()

    a.locator("#table .table-foot").get_by_role("link", name="Replay").click()
    a.locator("#board").wait_for()
    assert f"/games/{game.pk}/replay/" in a.url
    total = game.version
    assert f"Move 0 of {total}" in a.locator("#board").inner_text()
    a.locator("#board").get_by_role("link", name="End").click()
    a.locator("#board", has_text=f"Move {total} of {total}").wait_for()

    a.get_by_role("link", name="Back to the game").click()
    a.locator("#table .players").get_by_role("link", name="Bob").click()
    a.locator("h1", has_text="Bob").wait_for()
    assert "1 game finished" in a.locator("main").inner_text()

    a.locator("header").get_by_role("link", name="Leaderboard").click()
    a.locator("h1", has_text="Leaderboard").wait_for()
    names = a.locator("main table tbody td a").all_inner_texts()
    assert {"Ada", "Bob"} <= set(names)
