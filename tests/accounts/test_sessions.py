"""Where you are logged in (accounts/sessions.py, Settings → "Where you are logged in"): each
session's device, address and last use; "log out everywhere else" ends every other session,
listed or not, and keeps this one; a password change does the same; API tokens stand apart."""

import pytest
from allauth.usersessions.models import UserSession
from django.test import Client
from django.urls import reverse

from accounts import sessions
from tests.api.helpers import Api, token_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"
SAFARI_MAC = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/18.1 Safari/605.1.15"
)


def logged_in(user, user_agent: str, address: str = "203.0.113.7") -> Client:
    """A browser that logged in through the login form, as a person does."""
    browser = Client(HTTP_USER_AGENT=user_agent, REMOTE_ADDR=address)
    response = browser.post(
        reverse("account_login"), {"login": user.username, "password": PASSWORD}
    )
    assert response.status_code == 302, response.content[:500]
    return browser


def signed_in_as(browser: Client):
    return browser.get(reverse("home")).wsgi_request.user


def test_the_page_lists_each_session_with_its_device_address_and_last_use():
    ada = UserFactory()
    phone = logged_in(ada, FIREFOX_ANDROID, "198.51.100.4")
    laptop = logged_in(ada, SAFARI_MAC)
    phone.get(reverse("home"))  # used after the login
    page = laptop.get(reverse("usersessions_list"))
    assert page.status_code == 200
    listed = page.context["sessions"]
    assert [(s.device, s.ip, s.current) for s in listed] == [
        ("Safari on Mac OS X", "203.0.113.7", True),
        ("Firefox Mobile on Android", "198.51.100.4", False),
    ]
    text = page.content.decode()
    assert "Firefox Mobile on Android" in text and "198.51.100.4" in text and "this one" in text
    assert "Log out everywhere else" in text
    # Another player's sessions are not theirs to see.
    other = logged_in(UserFactory(), SAFARI_MAC, "192.0.2.99")
    theirs = other.get(reverse("usersessions_list")).content.decode()
    assert "198.51.100.4" not in theirs and "Log out everywhere else" not in theirs


def test_last_use_is_kept_at_most_once_a_minute(clock):
    ada = UserFactory()
    phone = logged_in(ada, FIREFOX_ANDROID, "198.51.100.4")
    laptop = logged_in(ada, SAFARI_MAC)

    def phone_last_used():
        listed = laptop.get(reverse("usersessions_list")).context["sessions"]
        (row,) = [s for s in listed if not s.current]
        return row.last_used.timestamp()

    clock.advance(7200)  # past the login's own time, which the list shows until a later use
    phone.get(reverse("home"))
    first = phone_last_used()
    assert first == pytest.approx(clock.time(), abs=1)
    clock.advance(30)
    phone.get(reverse("home"))
    assert phone_last_used() == first  # within the minute: not written again
    clock.advance(3600)
    phone.get(reverse("home"))
    assert phone_last_used() == pytest.approx(clock.time(), abs=1)


def test_log_out_everywhere_else_ends_the_others_and_keeps_this_one():
    ada = UserFactory()
    phone = logged_in(ada, FIREFOX_ANDROID, "198.51.100.4")
    laptop = logged_in(ada, SAFARI_MAC)
    # A session from before the site kept the list has no row: it ends too.
    unlisted = logged_in(ada, "curl/8.0")
    UserSession.objects.filter(user_agent="curl/8.0").delete()
    api = Api(Client(), token_for(ada, "read"))
    response = laptop.post(reverse("usersessions_list"))
    assert response.status_code == 302
    followed = laptop.get(response["Location"])
    assert "You are logged out of 1 other session; this one stays logged in." in (
        followed.content.decode()
    )
    assert signed_in_as(laptop) == ada
    assert not signed_in_as(phone).is_authenticated
    assert not signed_in_as(unlisted).is_authenticated
    assert [s.current for s in followed.context["sessions"]] == [True]
    assert api.get("/me").status_code == 200  # a token is not a session
    # A second time, with nothing else left, still says so plainly.
    again = laptop.post(reverse("usersessions_list"), follow=True)
    assert "You are logged out everywhere else; this one stays logged in." in again.content.decode()
    assert signed_in_as(laptop) == ada


def test_a_password_change_logs_out_everywhere_else_and_says_so():
    ada = UserFactory()
    phone = logged_in(ada, FIREFOX_ANDROID)
    laptop = logged_in(ada, SAFARI_MAC)
    new = "a new long pass 42"
    response = laptop.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": new, "password2": new},
        follow=True,
    )
    assert response.status_code == 200
    assert "You stay logged in here; everywhere else you are logged out." in (
        response.content.decode()
    )
    assert signed_in_as(laptop) == ada
    assert not signed_in_as(phone).is_authenticated
    assert [s.current for s in laptop.get(reverse("usersessions_list")).context["sessions"]] == [
        True
    ]


def test_the_page_is_for_a_logged_in_player_and_takes_only_get_and_post(client):
    page = client.get(reverse("usersessions_list"))
    assert page.status_code == 302 and reverse("account_login") in page["Location"]
    refused = client.post(reverse("usersessions_list"))
    assert refused.status_code == 302 and reverse("account_login") in refused["Location"]
    ada = UserFactory()
    browser = logged_in(ada, SAFARI_MAC)
    assert browser.put(reverse("usersessions_list")).status_code == 405
    assert signed_in_as(browser) == ada


@pytest.mark.parametrize(
    ("user_agent", "device"),
    [
        (FIREFOX_ANDROID, "Firefox Mobile on Android"),
        (SAFARI_MAC, "Safari on Mac OS X"),
        ("", "an unknown browser"),
        ("threethirteen-bot/1.0", "threethirteen-bot"),
    ],
)
def test_a_device_is_named_by_browser_and_system(user_agent, device):
    assert sessions.device_of(user_agent) == device


@pytest.mark.parametrize("language", ["en", "id", "cs", "is", "hu", "nl"])
def test_the_page_and_its_answer_are_in_the_players_language(language):
    from django.utils import translation

    ada = UserFactory(language=language)
    logged_in(ada, FIREFOX_ANDROID)
    laptop = logged_in(ada, SAFARI_MAC)
    page = laptop.get(reverse("usersessions_list")).content.decode()
    done = laptop.post(reverse("usersessions_list"), follow=True).content.decode()
    with translation.override(language):
        title = translation.gettext("Where you are logged in")
        button = translation.gettext("Log out everywhere else")
        answer = translation.ngettext(
            "You are logged out of %(count)d other session; this one stays logged in.",
            "You are logged out of %(count)d other sessions; this one stays logged in.",
            1,
        ) % {"count": 1}
        device = translation.gettext("%(browser)s on %(system)s") % {
            "browser": "Firefox Mobile",
            "system": "Android",
        }
    assert (language == "en") == (title == "Where you are logged in")
    assert title in page and button in page and device in page
    assert answer in done
