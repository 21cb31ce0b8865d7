"""The table hears another player's move through its stream of events (games/events.py,
static/js/table.js), served as `manage.py serve` and production serve the site: by ASGI
(uvicorn). While the stream is open the table's timed poll waits a minute, so a table that
catches up sooner caught up by the event."""

import sys

import pytest

from games import services
from tests.e2e.conftest import PASSWORD, TIMEOUT_MS
from tests.e2e.table import version_on, wait_until
from tests.factories import UserFactory, started_game
from tests.workers import site_process

pytestmark = [pytest.mark.e2e, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

# The site's ASGI application (config/asgi.py: its database pool too), with the static files
# Django's finders hold (the tests collect none). The table polls every second, as on the live
# server of the other browser tests (tests/e2e/conftest.py, `site`), rather than every 5 s.
POLL_SECONDS = 1
SERVE = (
    "import uvicorn, sys; from config.asgi import application; "
    f"import games.views.play; games.views.play.TABLE_POLL_SECONDS = {POLL_SECONDS}; "
    "from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler; "
    "uvicorn.run(ASGIStaticFilesHandler(application), host='127.0.0.1', "
    "port=int(sys.argv[1]), log_level='warning')"
)


def polls(asked) -> int:
    return len([url for _kind, url in asked if "/table/" in url])


@pytest.fixture
def asgi_site():
    """The site served by uvicorn on this test's database and Redis database."""
    with site_process(lambda port: [sys.executable, "-c", SERVE, str(port)]) as port:
        yield f"http://127.0.0.1:{port}"


def test_the_other_players_move_arrives_by_the_stream(browser, asgi_site):
    ann, bob = UserFactory(), UserFactory()
    game = started_game([ann, bob], is_public=False)
    watcher = ann if game.to_move_seat == 1 else bob
    mover = bob if watcher == ann else ann
    context = browser.new_context(base_url=asgi_site, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    asked = []
    page.on("request", lambda r: asked.append((r.resource_type, r.url)))
    streams = []  # the stream's answer: once it has begun, the stream is open
    page.on("response", lambda r: r.request.resource_type == "eventsource" and streams.append(r))
    page.goto(f"/accounts/login/?next=/games/{game.pk}/")
    page.locator("main form input[name=login]").fill(watcher.username)
    page.locator("main form input[name=password]").fill(PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    page.wait_for_selector("#table")
    wait_until(page, lambda: streams, timeout=10, what="the stream to open")
    version = version_on(page)
    polled = polls(asked)  # any timed poll sent before the stream was open
    # Longer than the table's poll: while the stream is open the timed poll waits a minute.
    page.wait_for_timeout(POLL_SECONDS * 1000 + 500)
    assert polls(asked) == polled
    services.move_draw(game_id=game.pk, user=mover, version=version, source="stock")
    # Only the event can bring it now: the table asks once, when it hears of the move.
    wait_until(page, lambda: version_on(page) == version + 1, timeout=20)
    assert polls(asked) == polled + 1
    context.close()
