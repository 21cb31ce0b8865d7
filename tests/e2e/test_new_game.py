"""The new-game form in a browser: the seats follow the number of players (htmx), the choices
made so far kept."""

import pytest

from games.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.worker]


def seat_names(form) -> list[str]:
    return form.locator("#seats select[name^=seat_]").evaluate_all("els => els.map(e => e.name)")


def test_the_seats_follow_the_number_of_players(player):
    _user, page = player()
    page.goto("/games/new/")
    form = page.locator("form.new-game")
    assert seat_names(form) == ["seat_2"]
    assert not form.locator("button[name=show_seats]").is_visible()  # the no-script button
    form.locator("select[name=seat_count]").select_option("4")
    form.locator("select[name=seat_4]").wait_for()
    assert seat_names(form) == ["seat_2", "seat_3", "seat_4"]
    form.locator("select[name=seat_3]").select_option("hard")
    form.locator("select[name=seat_count]").select_option("3")
    form.locator("select[name=seat_4]").wait_for(state="detached")
    assert seat_names(form) == ["seat_2", "seat_3"]
    assert form.locator("select[name=seat_3]").input_value() == "hard"
    with page.expect_navigation():
        form.locator("button[type=submit]:not([name])").click()
    game = Game.objects.get()
    assert game.seat_count == 3
    assert [s.user.bot_kind for s in game.seats.select_related("user")] == ["", "hard"]
