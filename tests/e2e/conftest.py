"""Browser tests: Playwright drives Debian's Chromium (/usr/bin/chromium, headless; Playwright's
own browser download is not used) against pytest-django's live server, with a real Celery worker
on Redis playing the bots. Screenshots go to var/e2e-artifacts/."""

import os
from pathlib import Path

import pytest

from tests.factories import UserFactory

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "var" / "e2e-artifacts"
PASSWORD = "correct horse battery"  # UserFactory's
TIMEOUT_MS = 15_000  # generous: the machine is shared and a bot's move goes through Redis


@pytest.fixture(scope="package")
def browser():
    """One Chromium for the package's tests; each test opens its own contexts.

    Playwright's sync API runs an asyncio loop in this thread for as long as it is started, so
    Django would refuse database access here (SynchronousOnlyOperation) without
    DJANGO_ALLOW_ASYNC_UNSAFE. It is set only while the browser runs, and Playwright is stopped
    after the last browser test, so that the rest of the suite keeps Django's check."""
    if not CHROMIUM.exists():
        missing = f"needs Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {missing}", pytrace=False)
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=str(CHROMIUM),
                headless=True,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                ],
            )
            yield chromium
            chromium.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture
def site(live_server, worker, settings, monkeypatch):
    """The live server's address, with the worker playing bots. The table polls every second
    (rather than 5 s) while a person is to move, so that another player's move shows quickly.
    (Its threads share the test's own cache key prefix: tests/conftest.py, fresh_rate_limits.)"""
    monkeypatch.setattr("games.views.play.TABLE_POLL_SECONDS", 1)
    settings.BOT_MOVE_DELAY_SECONDS = 0
    return live_server.url


@pytest.fixture
def open_page(browser, site):
    """open_page(width=1280, bypass_csp=False): a page in a new browser context (its own cookies,
    so its own player), closed after the test."""
    contexts = []

    def open_(*, width=1280, height=900, bypass_csp=False):
        context = browser.new_context(
            base_url=site,
            viewport={"width": width, "height": height},
            bypass_csp=bypass_csp,
            locale="en",
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


def log_in(page, user, next_path="/"):
    """Through the login form, as a person would."""
    page.goto(f"/accounts/login/?next={next_path}")
    form = page.locator("main form")
    form.locator("input[name=login]").fill(user.username)
    form.locator("input[name=password]").fill(PASSWORD)
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    return page


def sign_up(page, username, display_name=""):
    """Through the sign-up form on the page it shows, as a person would."""
    form = page.locator("main form")
    form.locator("input[name=username]").fill(username)
    if display_name:
        form.locator("input[name=display_name]").fill(display_name)
    form.locator("input[name=email]").fill(f"{username}@example.com")
    form.locator("input[name=password1]").fill("a long enough pass 42")
    form.locator("input[name=password2]").fill("a long enough pass 42")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    return page


@pytest.fixture
def player(open_page):
    """player(**user_fields, width=1280): a new player (UserFactory) logged in on a page of their
    own; returns (user, page)."""

    def make(*, width=1280, bypass_csp=False, **fields):
        user = UserFactory(**fields)
        page = open_page(width=width, bypass_csp=bypass_csp)
        log_in(page, user)
        return user, page

    return make


WRITTEN: list[Path] = []


def artifact(name: str) -> Path:
    """Where to keep a file for people to look at after the run (listed at the end of it)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    WRITTEN.append(ARTIFACTS / name)
    return WRITTEN[-1]


def pytest_terminal_summary(terminalreporter):
    if WRITTEN:
        terminalreporter.section("browser test artifacts")
        for path in WRITTEN:
            terminalreporter.write_line(str(path))
