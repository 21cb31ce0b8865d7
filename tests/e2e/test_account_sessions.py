"""Where you are logged in, in the browser: a player logged in on a phone and on a laptop finds
both under Settings, logs out everywhere else from the laptop, and the phone is logged out."""

import pytest

from tests.e2e.conftest import artifact, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.worker]


def test_log_out_everywhere_else_from_the_settings(player, open_page):
    ada, laptop = player()
    phone = log_in(open_page(width=390, height=844), ada)
    laptop.goto("/accounts/notifications/")
    with laptop.expect_navigation():  # the list is read on the page the link opens
        laptop.get_by_role("link", name="Where you are logged in").click()
    listed = laptop.locator("main .sessions li")
    assert listed.count() == 2
    assert "this one" in listed.first.inner_text().lower()  # a badge, in capitals
    phone.goto("/accounts/sessions/")
    phone.screenshot(path=artifact("sessions-phone-390.png"), full_page=True)
    with laptop.expect_navigation():
        laptop.get_by_role("button", name="Log out everywhere else").click()
    assert "You are logged out of 1 other session" in laptop.locator("main").inner_text()
    assert laptop.locator("main .sessions li").count() == 1
    laptop.screenshot(path=artifact("sessions-after-1280.png"), full_page=True)
    phone.reload()
    assert "/accounts/login/" in phone.url
    laptop.goto("/")
    assert laptop.locator("header .who").inner_text() == ada.display_name
