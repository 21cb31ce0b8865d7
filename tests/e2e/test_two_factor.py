"""Two-factor authentication in the browser, as a new player uses it: turned on from Settings with
an authenticator app (the code made here from the secret the page shows), recovery codes kept,
asked at the next login; then a passkey added through Chromium's virtual authenticator (WebAuthn,
over the DevTools protocol), which logs in alone from the login page. Played at a phone's width,
each page looked at on a laptop's too."""

import re
import time
from urllib.parse import urlsplit

import pytest
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
from django.core import mail

from tests.e2e.conftest import artifact, sign_up
from tests.workers import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.worker]

PASSWORD = "a long enough pass 42"  # sign_up's


def code_of(secret: str) -> str:
    return format_hotp_value(hotp_value(secret, int(time.time()) // 30))


def submit(page, button_name: str):
    with page.expect_navigation():
        page.locator("main").get_by_role("button", name=button_name, exact=True).click()


def follow(page, link_name: str):
    with page.expect_navigation():
        page.locator("main").get_by_role("link", name=link_name, exact=True).click()


def log_in_with_password(page, username: str):
    page.goto("/accounts/login/")
    page.locator("input[name=login]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    submit(page, "Log in")


def log_out(page):
    page.goto("/accounts/logout/")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()


def shots(page, name: str):
    """The page at a phone's width, then a laptop's, and back to the phone."""
    for width, height in ((390, 844), (1280, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=artifact(f"two-factor-{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})


def test_a_new_player_turns_on_an_authenticator_app_then_a_passkey(open_page):
    page = open_page(width=390, height=844)
    username = "careful"
    page.goto("/accounts/signup/")
    sign_up(page, username)
    # Two-factor waits for a verified address (allauth's rule): the link in the mail.
    address = f"{username}@example.com"
    assert wait_for(lambda: [m for m in mail.outbox if m.to == [address]], timeout=10)
    body = [m for m in mail.outbox if m.to == [address]][-1].body
    page.goto(urlsplit(re.search(r"https?://\S+/accounts/confirm-email/\S+/", body).group(0)).path)
    submit(page, "Confirm")

    # Settings → Two-factor authentication → Activate: confirm with the password first.
    page.goto("/accounts/notifications/")
    follow(page, "Two-factor authentication")
    follow(page, "Activate")
    assert "/accounts/reauthenticate/" in page.url
    page.locator("input[name=password]").fill(PASSWORD)
    submit(page, "Confirm")
    shots(page, "activate")
    secret = page.locator("#authenticator_secret").input_value()
    assert page.locator("main img").first.get_attribute("src").startswith("data:image/svg+xml")
    page.locator("input[name=code]").fill("000000")
    submit(page, "Activate")
    assert "Incorrect code." in page.locator("main").inner_text()
    page.locator("input[name=code]").fill(code_of(secret))
    submit(page, "Activate")
    # Straight to the recovery codes, to keep.
    assert "Authenticator app activated." in page.locator("body").inner_text()
    codes = page.locator("main textarea").input_value().split()
    assert len(codes) == 10
    shots(page, "codes")

    # The next login asks for the code after the password; a recovery code does as well.
    log_out(page)
    log_in_with_password(page, username)
    assert "/accounts/2fa/authenticate/" in page.url
    assert page.locator("header .who").count() == 0  # not logged in yet
    shots(page, "login-code")
    page.locator("input[name=code]").fill(codes[0])
    submit(page, "Log in")
    assert page.locator("header .who").inner_text() == username

    # A passkey, added from Settings: a sensitive change, confirmed with a code, not the password.
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    page.goto("/accounts/2fa/")
    follow(page, "Add")
    assert "/accounts/2fa/reauthenticate/" in page.url
    assert page.locator("input[name=password]").count() == 0
    page.locator("input[name=code]").fill(codes[1])
    submit(page, "Confirm")
    page.locator("input[name=name]").fill("This browser")
    page.locator("input[name=passwordless]").check()
    with page.expect_navigation():
        page.locator("#mfa_webauthn_add").click()
    assert "Security key added." in page.locator("body").inner_text()
    shots(page, "index")

    # The passkey logs in alone, from the login page.
    log_out(page)
    page.goto("/accounts/login/")
    shots(page, "login-page")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in with a passkey").click()
    assert page.locator("header .who").inner_text() == username
