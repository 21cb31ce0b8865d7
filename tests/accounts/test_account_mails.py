"""The mails of accounts (allauth's, templates/account/email/): the site's own, in the frame of the
game mails, in sentence case, in the recipient's language (the page's for an address without an
account)."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PREFIX = "3·13: "


def words(code: str, msgid: str) -> str:
    with translation.override(code):
        text = translation.gettext(msgid)
    assert code == "en" or text != msgid, f"{code}: {msgid!r} is not translated"
    return text


def html_of(message) -> str:
    [(html, kind)] = message.alternatives
    assert kind == "text/html"
    return html


def branded(message, code: str, link: str) -> None:
    """Text and HTML, the HTML in the game mails' frame with the link as its button."""
    html = html_of(message)
    assert f'<html lang="{code}">' in html
    assert "3<span" in html and words(code, "Three Thirteen by post") in html
    assert f'href="{link}"' in html
    assert link in message.body and "<" not in message.body


@pytest.mark.parametrize("code", ["en", "cs"])
def test_the_confirmation_mail_is_the_sites_own_in_the_players_language(code):
    password = "a long enough pass 42"
    Client().post(
        reverse("account_signup"),
        {"username": "jana", "display_name": "Jana N.", "email": "jana@example.com",
         "password1": password, "password2": password},
        HTTP_ACCEPT_LANGUAGE=code,
    )  # fmt: skip
    message = mail.outbox[-1]
    assert message.subject == PREFIX + words(code, "Confirm your email address")
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body).group(0)
    branded(message, code, link)
    assert words(code, "Confirm my address") in html_of(message)
    greeting = words(code, "Hello %(name)s,") % {"name": "Jana N."}
    assert greeting in message.body and greeting in html_of(message)


@pytest.mark.parametrize("code", ["en", "nl"])
def test_the_reset_mail_goes_in_the_players_language_whatever_the_page(code):
    user = UserFactory(email="ida@example.com", language=code)
    Client().post(
        reverse("account_reset_password"), {"email": user.email}, HTTP_ACCEPT_LANGUAGE="hu"
    )
    message = mail.outbox[-1]
    assert message.subject == PREFIX + words(code, "Reset your password")
    link = re.search(r"https?://\S+/accounts/password/reset/key/\S+/", message.body).group(0)
    branded(message, code, link)
    assert words(code, "Choose a new password") in html_of(message)


def test_a_reset_for_an_unknown_address_is_in_the_pages_language():
    Client().post(
        reverse("account_reset_password"), {"email": "nobody@example.com"},
        HTTP_ACCEPT_LANGUAGE="is",
    )  # fmt: skip
    message = mail.outbox[-1]
    assert message.subject == PREFIX + words("is", "No account has this address")
    link = re.search(r"https?://\S+/accounts/signup/", message.body).group(0)
    branded(message, "is", link)
