"""The hard bot's advice at the table, and a game's review in the browser as a player finds
it: from the finished game in the game list, from the table's ranking, and from the profile's
accuracy chart; each page shot on a phone's width and a laptop's. The game (a person against the
easy bot, played to its end through the services) is reviewed by the worker, as each of its
rounds ended."""

import pytest

from games.models import RoundReview
from tests.e2e.conftest import artifact
from tests.factories import play_on, started_game
from tests.workers import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.worker]


def test_a_finished_game_is_reviewed_and_the_review_is_found_three_ways(player, settings):
    """One game, each page looked at on a phone's width and a laptop's."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": (10**6, 60)}
    settings.REVIEW_PAUSE_SECONDS = 0.2
    ann, page = player(width=390, display_name="Ann")

    def shoot(name):
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=artifact(f"{name}-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 900})

    game = started_game([ann], bots="easy", seat_count=2)
    # On her turn, the hint's box offers the hard bot's advice, asked for with a click.
    play_on(game, until=lambda g: g.seats.get(index=g.to_move_seat).user == ann)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("button", name="Ask the hard bot").click()
    advice = page.locator("#advice .advice-best")
    advice.wait_for()
    assert advice.inner_text().startswith("The hard bot would")
    shoot("advice")
    play_on(game, level="medium")
    rounds = RoundReview.objects.filter(seat__game=game, seat__user=ann)
    assert wait_for(lambda: rounds.count() == 11, timeout=60)

    page.goto("/")
    finished = page.locator(".game-row", has_text=f"#{game.pk}")
    with page.expect_navigation():
        finished.get_by_role("link", name="Review").click()
    main = page.locator("main")
    assert f"Game #{game.pk}: your review" in main.inner_text()
    assert "Accuracy" in main.inner_text() and "Round by round" in main.inner_text()
    shoot("review")
    page.locator("details.review-round").first.locator("summary").click()
    assert page.locator("details.review-round").first.locator("table").is_visible()
    shoot("review-round")

    page.goto(f"/games/{game.pk}/")
    with page.expect_navigation():
        page.get_by_role("link", name="Review your decisions").click()
    assert "your review" in page.locator("h1").inner_text()

    page.goto(f"/players/{ann.username}/")
    assert page.locator("svg.accuracy-chart").is_visible()
    shoot("review-profile")
    with page.expect_navigation():
        page.locator("#accuracy ~ p a", has_text=f"Game #{game.pk}").click()
    assert "your review" in page.locator("h1").inner_text()
