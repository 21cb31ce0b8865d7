"""Sign up in the browser and verify the address by the link in the mail sent."""

import re
from urllib.parse import urlsplit

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from tests.e2e.conftest import artifact, sign_up
from tests.workers import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.worker]


def test_sign_up_then_verify_the_address_from_the_mail(open_page):
    page = open_page()
    page.goto("/")
    with page.expect_navigation():  # the form is filled on the page the link opens
        page.locator("header").get_by_role("link", name="Sign up").click()
    sign_up(page, "ada", display_name="Ada L.")
    assert page.locator("header .who").inner_text() == "Ada L."  # logged in at once

    # The live server runs in this process: its locmem mail lands in django.core.mail.outbox.
    assert wait_for(lambda: mail.outbox, timeout=10)
    message = mail.outbox[-1]
    assert message.to == ["ada@example.com"]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body).group(0)
    address = EmailAddress.objects.get(email="ada@example.com")
    assert not address.verified

    page.goto(urlsplit(link).path)  # the path: the host in the mail is the live server's anyway
    assert "ada@example.com" in page.locator("main").inner_text()
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    address.refresh_from_db()
    assert address.verified


def test_signing_up_too_often_shows_the_sites_page_in_czech_with_the_wait(
    open_page, site, settings, clock
):
    """Past the sign-up limit (here 2 an hour; the clock stopped at the start of an hour): the
    site's page, in the language the reader chose, saying how long to wait, on a phone."""
    settings.SIGNUP_ADDRESS_LIMITS = [(2, 3600)]
    page = open_page(width=360, height=740)
    page.context.add_cookies([{"name": "django_language", "value": "cs", "url": site}])
    for username in ("ada", "bob"):
        page.goto("/accounts/signup/")
        sign_up(page, username)
        page.context.clear_cookies()
        page.context.add_cookies([{"name": "django_language", "value": "cs", "url": site}])
    clock.advance(20 * 60)
    page.goto("/accounts/signup/")
    sign_up(page, "cyd")
    main = page.locator("main")
    assert "Zkuste to znovu za 40 minut." in main.inner_text()
    assert page.locator("header.site-header a.brand").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(artifact("signup-refused-cs-360px.png")))
