"""A tournament in two browsers: a host opens one from the tournaments page, a new player signs
up and joins it, the host starts it, and the new player opens their round-1 table from the
tournament's page."""

import pytest

from games.models import Tournament, TournamentTable
from tests.e2e.conftest import artifact, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.worker]


def test_a_host_opens_a_tournament_a_new_player_joins_and_opens_their_table(player, open_page):
    _host, desk = player(width=1280, display_name="Hilda")
    desk.goto("/tournaments/")
    form = desk.locator("#tournament-new form")
    form.get_by_label("Name").fill("Harvest cup")
    form.get_by_label("Players at a table").select_option("2")
    form.get_by_label("Rounds").select_option("2")
    desk.screenshot(path=str(artifact("tournaments-1280px.png")), full_page=True)
    with desk.expect_navigation():
        form.get_by_role("button", name="Open the tournament").click()
    tournament = Tournament.objects.get()
    assert desk.url.endswith(f"/tournaments/{tournament.pk}/")
    assert desk.get_by_role("heading", name="Harvest cup").is_visible()

    phone = open_page(width=360, height=740)
    phone.goto("/accounts/signup/")
    sign_up(phone, "newcomer", "Nina")
    phone.goto("/tournaments/")
    phone.screenshot(path=str(artifact("tournaments-360px.png")), full_page=True)
    with phone.expect_navigation():
        phone.get_by_role("link", name="Harvest cup").click()
    with phone.expect_navigation():
        phone.get_by_role("button", name="Join").click()
    assert phone.get_by_role("button", name="Leave").is_visible()
    assert phone.locator("#standing").get_by_text("Nina").is_visible()
    phone.screenshot(path=str(artifact("tournament-open-360px.png")), full_page=True)

    desk.reload()
    with desk.expect_navigation():
        desk.get_by_role("button", name="Start now").click()
    assert desk.get_by_text("Round 1 of 2.").is_visible()
    desk.screenshot(path=str(artifact("tournament-playing-1280px.png")), full_page=True)

    table = TournamentTable.objects.get(round__tournament=tournament)
    phone.reload()
    phone.screenshot(path=str(artifact("tournament-playing-360px.png")), full_page=True)
    with phone.expect_navigation():
        phone.locator("#round-1").get_by_role("link", name="Table 1").click()
    assert phone.url.endswith(f"/games/{table.game_id}/")
    phone.locator("#table").wait_for()
    assert phone.get_by_role("link", name="Harvest cup · Round 1").is_visible()  # the way back
    phone.screenshot(path=str(artifact("tournament-table-360px.png")))
    assert set(table.game.seats.values_list("user__display_name", flat=True)) == {"Hilda", "Nina"}
