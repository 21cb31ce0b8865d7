"""Quick play in two browsers: two people who do not know each other press "Find me a game" and
end at the same table, which started by itself."""

import pytest

from games.models import Game, Seek
from tests.e2e.conftest import artifact

pytestmark = [pytest.mark.e2e, pytest.mark.worker]


def test_two_strangers_find_the_same_game_and_it_starts_by_itself(player):
    alice, on_phone = player(width=360, display_name="Alice")
    bob, on_desk = player(width=1280, display_name="Bob")
    on_phone.goto("/")  # the dashboard's form
    on_phone.screenshot(path=str(artifact("quick-play-dashboard-360px.png")), full_page=True)
    with on_phone.expect_navigation():
        on_phone.get_by_role("button", name="Find me a game").click()
    game = Game.objects.get(quick=True)
    assert on_phone.url.endswith(f"/games/{game.pk}/")
    assert on_phone.get_by_text("Quick play").first.is_visible()
    on_phone.screenshot(path=str(artifact("quick-play-waiting-360px.png")), full_page=True)
    on_phone.goto("/")  # the open seek, with its Cancel
    assert on_phone.get_by_role("button", name="Cancel").is_visible()
    on_phone.screenshot(path=str(artifact("quick-play-seeking-360px.png")), full_page=True)
    on_phone.goto(f"/games/{game.pk}/")

    on_desk.goto("/lobby/")  # the lobby's form, and the waiting quick game listed
    assert on_desk.locator(f"a[href='/games/{game.pk}/']").is_visible()
    on_desk.screenshot(path=str(artifact("quick-play-lobby-1280px.png")), full_page=True)
    with on_desk.expect_navigation():
        on_desk.get_by_role("button", name="Find me a game").click()
    assert on_desk.url.endswith(f"/games/{game.pk}/")
    on_desk.locator("#table").wait_for()  # the table: the game started
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert set(game.seats.values_list("user", flat=True)) == {alice.pk, bob.pk}
    assert set(Seek.objects.values_list("status", flat=True)) == {Seek.Status.MATCHED}

    on_phone.locator("#table").wait_for()  # the waiting room reloads itself into the table
    assert on_phone.url.endswith(f"/games/{game.pk}/")
    on_desk.screenshot(path=str(artifact("quick-play-table-1280px.png")))
    on_phone.screenshot(path=str(artifact("quick-play-table-360px.png")))
