"""The dashboard in two browsers: a rematch one player offers from the finished table shows on
the other's open dashboard without a reload (its invitations poll)."""

import pytest

from games import services
from games.models import Game
from tests.e2e.conftest import artifact
from tests.factories import started_game

pytestmark = [pytest.mark.e2e, pytest.mark.worker]


def test_a_rematch_shows_on_the_other_players_open_dashboard(player, monkeypatch):
    monkeypatch.setattr("games.selectors.dashboard.INVITATIONS_POLL_SECONDS", 1)
    alice, at_table = player(display_name="Alice")
    bob, on_dashboard = player(width=390, display_name="Bob")
    game = started_game([alice, bob])
    services.game_resign(game_id=game.pk, user=bob)  # finished
    on_dashboard.goto("/")
    invitations = on_dashboard.locator("#invitations")
    assert "None." in invitations.inner_text()
    navigations = []
    on_dashboard.on("framenavigated", lambda frame: navigations.append(frame.url))

    at_table.goto(f"/games/{game.pk}/")
    with at_table.expect_navigation():
        at_table.get_by_role("button", name="Rematch").click()
    rematch = Game.objects.get(rematch_of=game)
    invitations.get_by_text(f"Alice invites you to game #{rematch.pk}").wait_for()
    assert navigations == []  # no reload: the section alone was swapped
    on_dashboard.screenshot(path=str(artifact("dashboard-rematch-390px.png")), full_page=True)
    with on_dashboard.expect_navigation():
        invitations.get_by_role("button", name="Accept").click()
    assert on_dashboard.url.endswith(f"/games/{rematch.pk}/")
