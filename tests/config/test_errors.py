"""The error pages (config/errors.py): a body Django refuses is a 400 wherever it is sent, and
every 500 is logged once, with its traceback. The settings are production's where it matters:
DEBUG off, so the error pages answer instead of Django's debug pages."""

import logging

import pytest
from django.test import Client
from django.urls import path, reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _signed_csrf_client():
    """A visitor holding a CSRF cookie, as anyone does after opening the login page."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.get(reverse("account_login"))
    return client, client.cookies["csrftoken"].value


def _too_many_fields(token):
    return {"data": {"csrfmiddlewaretoken": token, **{f"f{i}": "x" for i in range(1200)}}}


def _too_large_urlencoded(token):
    body = f"csrfmiddlewaretoken={token}&x={'a' * 2_700_000}"
    return {"data": body, "content_type": "application/x-www-form-urlencoded"}


def _malformed_multipart(token):
    return {"data": "--x\r\nnot a part", "content_type": "multipart/form-data; boundary="}


@pytest.mark.parametrize(
    "body", [_too_many_fields, _too_large_urlencoded, _malformed_multipart]
)  # a multipart body over the limit is a 413 before anything reads it: tests/config/test_uploads.py
@pytest.mark.parametrize("address", ["/no-such-page/", "/games/999999999/"])
def test_a_body_django_refuses_is_a_400_at_an_unknown_address_too(settings, caplog, body, address):
    """Django's 404 page reads a POST's body (its CSRF decorator does): a body it refuses raised
    there, inside the error page, and became an unlogged 500."""
    settings.DEBUG = False
    client, token = _signed_csrf_client()
    response = client.post(address, **body(token))
    assert response.status_code == 400
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [r for r in errors if r.name == "django.request"]  # no 500 logged


def _boom(request):
    raise RuntimeError("boom in a view")


def _broken_404_page(request, exception):
    raise RuntimeError("boom in the 404 page")


urlpatterns = [path("boom/", _boom)]
handler404 = _broken_404_page
handler500 = "config.errors.server_error"


@pytest.mark.urls("tests.config.test_errors")
@pytest.mark.parametrize(
    ("address", "error"), [("/boom/", "boom in a view"), ("/missing/", "boom in the 404 page")]
)
def test_every_500_is_logged_once_with_its_traceback(settings, caplog, address, error):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.INFO):
        response = client.get(address)
    assert response.status_code == 500 and "Something went wrong" in response.content.decode()
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(logged) == 1, [r.getMessage() for r in logged]
    assert logged[0].name == "django.request" and address in logged[0].getMessage()
    assert logged[0].exc_info and str(logged[0].exc_info[1]) == error


def test_a_stranger_typing_an_address_gets_the_sites_own_404_page(client):
    """Not Django's bare 'Not Found' (nor, with DEBUG on, its list of every URL pattern)."""
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    for address in ("/games/999999/", "/no-such-page/"):
        response = client.get(address)
        html = response.content.decode()
        assert response.status_code == 404
        assert "/static/css/site.css" in html and "<h1>Page not found</h1>" in html


def test_an_address_typed_that_only_takes_a_button_press_is_a_page_that_says_so(client):
    """GET of a POST-only address (practice, resign, ...) typed into the address bar: a 405 with
    the site's own page and the methods it takes, not an empty answer the browser shows as its
    own error."""
    client.force_login(UserFactory())
    answer = client.get(reverse("practice_start"))
    assert answer.status_code == 405 and answer["Allow"] == "POST"
    assert "not a visit. Go back to your games" in answer.content.decode()
    assert 'href="/"' in answer.content.decode()
    htmx = client.get(reverse("practice_start"), HTTP_HX_REQUEST="true")
    assert htmx.status_code == 405 and htmx.content == b""  # htmx shows no page it did not ask for


# Every refusal is the site's own page (its header and stylesheet), in the reader's language.
SITE_PAGE = ('<header class="site-header">', "/static/css/site.css")


def site_page_in(response, language: str) -> str:
    html = response.content.decode()
    assert all(piece in html for piece in SITE_PAGE), html[:400]
    assert f'<html lang="{language}">' in html
    return html


def test_signing_up_too_often_is_the_sites_page_in_czech_that_says_how_long_to_wait(clock):
    """Past the sign-up limit (10 a minute from one address): a 429 that says, in the reader's
    language (the browser's here, the picker's cookie below), how long to wait, as Retry-After
    does: the rest of the minute."""
    browser = Client(HTTP_ACCEPT_LANGUAGE="cs")
    signup = reverse("account_signup")
    for n in range(10):
        assert browser.post(signup, {"username": f"x{n}"}).status_code == 400
    clock.advance(15)
    refused = browser.post(signup, {"username": "x10"})
    assert refused.status_code == 429 and refused["Retry-After"] == "45"
    html = site_page_in(refused, "cs")
    assert "Zkuste to znovu za 45 sekund." in html and "Too Many Requests" not in html
    browser.cookies["django_language"] = "nl"
    clock.advance(44)
    assert "Probeer het over 1 seconde opnieuw." in site_page_in(browser.post(signup, {}), "nl")
    clock.advance(1)
    assert browser.post(signup, {"username": "x11"}).status_code == 400  # a new minute


def test_a_refused_login_says_how_long_to_wait(clock):
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(30):
        browser.post(reverse("account_login"), {"login": "nobody", "password": "x"})
    clock.advance(50)
    refused = browser.post(reverse("account_login"), {"login": "nobody", "password": "x"})
    assert refused.status_code == 429 and refused["Retry-After"] == "10"
    assert "Try again in 10 seconds." in site_page_in(refused, "en")


def test_allauths_other_limits_answer_with_the_sites_page_and_the_longest_wait(client):
    """A limit of allauth's (changing the password: 5 a minute per player) answers through the
    site's handler429: its page, in the player's language, with the limit's window to wait."""
    client.force_login(UserFactory(language="hu"))
    answers = [client.post(reverse("account_change_password"), {}) for _ in range(6)]
    refused = answers[-1]
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "Próbáld újra 1 perc múlva." in site_page_in(refused, "hu")


def test_a_request_refused_as_bad_or_forbidden_is_the_sites_page_in_the_readers_language():
    browser = Client(HTTP_ACCEPT_LANGUAGE="cs", enforce_csrf_checks=True)
    csrf = browser.post(reverse("account_login"), {"login": "x", "password": "y"})
    assert csrf.status_code == 403
    assert "Too Many Requests" not in site_page_in(csrf, "cs")
    staff_only = Client(HTTP_ACCEPT_LANGUAGE="cs")
    staff_only.force_login(UserFactory(language="cs"))
    forbidden = staff_only.get(reverse("admin:login"))
    assert forbidden.status_code == 403
    site_page_in(forbidden, "cs")
    bad = Client(HTTP_ACCEPT_LANGUAGE="cs").post(
        "/accounts/login/", "--x\r\nnot a part", content_type="multipart/form-data; boundary="
    )
    assert bad.status_code == 400
    assert "Bad Request" not in site_page_in(bad, "cs")


@pytest.mark.parametrize(
    "template", ["400.html", "403.html", "403_csrf.html", "404.html", "405.html", "413.html",
                 "429.html", "500.html", "503.html", "accounts/busy.html"],
)  # fmt: skip
def test_every_standalone_page_carries_the_sites_icon(template):
    """A refusal page is the site's own down to the tab's icon: without the link the browser
    asks for /favicon.ico, which is a 404."""
    from django.template.loader import render_to_string
    from django.templatetags.static import static

    assert f'rel="icon" href="{static("favicon.svg")}"' in render_to_string(template, {})
