"""Two-factor authentication (accounts/twofactor.py, allauth.mfa): the code asked at login after
the password, and before each sensitive change instead of the password; wrong codes limited as
wrong passwords are; a password reset does not get round it; recovery codes work once; the API's
tokens stand apart. (The pages in the browser, with a passkey: tests/e2e/test_two_factor.py.)"""

import re

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import TOTP, format_hotp_value, generate_totp_secret, hotp_value
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts import twofactor
from accounts.models import ApiToken
from tests.api.helpers import Api, token_for
from tests.factories import UserFactory
from tests.i18n.visible import VisibleText

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def code_now(secret: str, clock, step: int = 0) -> str:
    return format_hotp_value(hotp_value(secret, int(clock.now) // 30 + step))


@pytest.fixture
def ada(clock):
    """A player with an authenticator app and recovery codes; ada.secret, ada.codes."""
    user = UserFactory(username="ada")
    user.secret = generate_totp_secret()
    TOTP.activate(user, user.secret)
    user.codes = RecoveryCodes.activate(user).get_unused_codes()
    return user


def password_step(user, browser=None) -> Client:
    """The login form's first step: the right password."""
    browser = browser or Client()
    response = browser.post(
        reverse("account_login"), {"login": user.username, "password": PASSWORD}
    )
    assert response.status_code == 302, response.content[:300]
    assert response["Location"] == reverse("mfa_authenticate")
    return browser


def user_of(browser: Client):
    return browser.get(reverse("home")).wsgi_request.user


def test_login_asks_for_the_code_after_the_password(ada, clock):
    browser = password_step(ada)
    assert not user_of(browser).is_authenticated  # the password alone logs no one in
    page = browser.get(reverse("mfa_authenticate"))
    assert page.status_code == 200 and 'autocomplete="one-time-code"' in page.content.decode()
    wrong = browser.post(reverse("mfa_authenticate"), {"code": "000000"})
    assert wrong.status_code == 400 and "Incorrect code." in wrong.content.decode()
    assert not user_of(browser).is_authenticated
    right = browser.post(reverse("mfa_authenticate"), {"code": code_now(ada.secret, clock)})
    assert right.status_code == 302
    assert user_of(browser) == ada


def test_a_code_is_good_once(ada, clock):
    code = code_now(ada.secret, clock)
    first = password_step(ada)
    assert first.post(reverse("mfa_authenticate"), {"code": code}).status_code == 302
    second = password_step(ada)
    again = second.post(reverse("mfa_authenticate"), {"code": code})
    assert again.status_code == 400 and not user_of(second).is_authenticated


def test_a_code_of_the_window_before_or_after_is_taken_one_further_is_not(ada, clock):
    """A phone's clock a little off, or a code typed as its 30 s closed: one window either
    way (MFA_TOTP_TOLERANCE); two windows off is refused."""
    for step, taken in ((-2, False), (2, False), (-1, True), (1, True)):
        browser = password_step(ada)
        answer = browser.post(
            reverse("mfa_authenticate"), {"code": code_now(ada.secret, clock, step)}
        )
        assert (answer.status_code == 302) == taken, step
        assert user_of(browser).is_authenticated == taken


def test_a_recovery_code_logs_in_once(ada):
    browser = password_step(ada)
    assert browser.post(reverse("mfa_authenticate"), {"code": ada.codes[0]}).status_code == 302
    assert user_of(browser) == ada
    other = password_step(ada)
    assert other.post(reverse("mfa_authenticate"), {"code": ada.codes[0]}).status_code == 400
    assert other.post(reverse("mfa_authenticate"), {"code": ada.codes[1]}).status_code == 302


def code_step(ada, address: str) -> Client:
    """The password typed right from `address`: the browser at the code's step."""
    return password_step(ada, Client(REMOTE_ADDR=address))


def send_code(browser: Client, code: str) -> int:
    return browser.post(reverse("mfa_authenticate"), {"code": code}).status_code


def test_wrong_codes_are_limited_as_wrong_passwords_are(ada, clock):
    """settings.ACCOUNT_RATE_LIMITS["code_failed"]: 5 in 5 minutes per account and address; past
    it even the right code is refused there, with a 429 and what helps; five minutes on, it
    works."""
    browser = code_step(ada, "203.0.113.9")
    for _ in range(5):
        assert send_code(browser, "123456") == 400
    refused = browser.post(reverse("mfa_authenticate"), {"code": code_now(ada.secret, clock)})
    assert refused.status_code == 429
    assert "Too many wrong codes lately" in refused.content.decode()
    assert not user_of(browser).is_authenticated
    clock.advance(5 * 60 + 1)
    assert send_code(browser, code_now(ada.secret, clock)) == 302 and user_of(browser) == ada


def test_a_password_holders_wrong_codes_do_not_lock_the_owner_out(ada, clock):
    """Someone with the password types wrong codes from one address until it is refused; the
    owner's right code, or a recovery code, from another address logs in all the same, and the
    guesser's address stays refused (docs/security.md: no stranger locks a player out)."""
    guesser = code_step(ada, "203.0.113.9")
    for _ in range(5):
        assert send_code(guesser, "123456") == 400
    assert send_code(guesser, "123456") == 429
    owner = code_step(ada, "198.51.100.7")
    assert send_code(owner, code_now(ada.secret, clock)) == 302 and user_of(owner) == ada
    assert send_code(guesser, code_now(ada.secret, clock, step=1)) == 429
    assert send_code(guesser, ada.codes[0]) == 429  # a recovery code too, from there
    again = code_step(ada, "198.51.100.7")
    assert send_code(again, ada.codes[1]) == 302 and user_of(again) == ada


def test_guesses_from_many_addresses_meet_the_accounts_ceiling(ada, clock):
    """No address reaches the account's ceiling (ACCOUNT_RATE_LIMITS["code_failed_account"],
    30 an hour from every address together); guesses from several do, and are told so."""
    for n in range(3):
        guesser = code_step(ada, f"203.0.113.{n + 1}")
        for _ in range(2):
            statuses = [send_code(guesser, "123456") for _ in range(5)]
            assert statuses == [400] * 5, (n, statuses)
            clock.advance(5 * 60 + 1)
    refused = code_step(ada, "198.51.100.7").post(reverse("mfa_authenticate"), {"code": "654321"})
    assert refused.status_code == 429 and "from several places" in refused.content.decode()
    clock.advance(3600)
    assert send_code(code_step(ada, "198.51.100.7"), code_now(ada.secret, clock)) == 302


def test_a_password_reset_does_not_get_round_the_code(ada, clock):
    """The reset link logs in (ACCOUNT_LOGIN_ON_PASSWORD_RESET), but only after the code."""
    browser = Client()
    browser.post(reverse("account_reset_password"), {"email": ada.email})
    link = re.search(r"http://\S+/password/reset/key/\S+", mail.outbox[-1].body).group(0)
    path = link.split("://", 1)[1].split("/", 1)[1]
    form = browser.get("/" + path, follow=True)
    new = "a brand new pass 77"
    done = browser.post(form.redirect_chain[-1][0], {"password1": new, "password2": new})
    assert done.status_code == 302 and done["Location"] == reverse("mfa_authenticate")
    assert not user_of(browser).is_authenticated
    browser.post(reverse("mfa_authenticate"), {"code": code_now(ada.secret, clock)})
    assert user_of(browser) == ada


def logged_in(user, clock) -> Client:
    browser = password_step(user)
    browser.post(reverse("mfa_authenticate"), {"code": code_now(user.secret, clock)})
    return browser


SENSITIVE = ["account_change_password", "account_delete", "api_access", "mfa_view_recovery_codes"]


@pytest.mark.parametrize("name", SENSITIVE)
def test_a_sensitive_page_asks_for_the_code_not_the_password(ada, clock, name):
    browser = logged_in(ada, clock)
    clock.advance(31)  # the login's code is spent
    asked = browser.get(reverse(name))
    assert asked.status_code == 302
    assert asked["Location"].startswith(reverse("mfa_reauthenticate"))
    # The password's own confirmation page sends them to the code's.
    password_page = browser.get(reverse("account_reauthenticate"))
    assert password_page.status_code == 302
    assert password_page["Location"].startswith(reverse("mfa_reauthenticate"))
    confirmed = browser.post(asked["Location"], {"code": code_now(ada.secret, clock)})
    assert confirmed.status_code == 302 and confirmed["Location"] == reverse(name)
    assert browser.get(reverse(name)).status_code == 200
    clock.advance(5 * 60 + 1)  # one confirmation lasts five minutes
    assert browser.get(reverse(name)).status_code == 302


def test_a_new_email_address_waits_for_two_factor_off(ada, clock):
    """allauth's rule: an account under two-factor adds no address (an unverified one could be
    a stranger's way in); the form says so, and changes nothing."""
    browser = logged_in(ada, clock)
    refused = browser.post(
        reverse("account_email"), {"action_add": "", "email": "ada.new@example.com"}
    )
    assert refused.status_code == 400
    assert "protected by two-factor authentication" in refused.content.decode()
    assert not ada.emailaddress_set.filter(email="ada.new@example.com").exists()


def test_the_password_does_not_confirm_a_player_with_two_factor(ada, clock):
    browser = logged_in(ada, clock)
    # Posted straight to the password's page, past its redirect: refused all the same.
    from allauth.account.adapter import get_adapter
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        get_adapter().reauthenticate(ada, PASSWORD)
    assert refused.value.code == "two_factor_asked"
    assert browser.get(reverse("account_delete")).status_code == 302


def test_a_player_without_two_factor_is_asked_as_before(clock):
    bob = UserFactory()
    browser = Client()
    browser.post(reverse("account_login"), {"login": bob.username, "password": PASSWORD})
    assert user_of(browser) == bob
    assert not twofactor.enabled(bob)
    for name in ("account_change_password", "account_delete", "api_access"):
        assert browser.get(reverse(name)).status_code == 200, name
    # A new email address is confirmed with the password, as it was.
    asked = browser.post(reverse("account_email"), {"action_add": "", "email": "b@example.com"})
    assert asked["Location"].startswith(reverse("account_reauthenticate"))


def test_deleting_the_account_needs_the_code_and_the_password(ada, clock):
    browser = logged_in(ada, clock)
    clock.advance(31)
    refused = browser.post(reverse("account_delete"), {"password": PASSWORD})
    assert refused.status_code == 302 and refused["Location"].startswith(
        reverse("mfa_reauthenticate")
    )
    assert type(ada).objects.filter(pk=ada.pk).exists()
    browser.post(reverse("mfa_reauthenticate"), {"code": code_now(ada.secret, clock)})
    assert browser.post(reverse("account_delete"), {"password": PASSWORD}).status_code == 302
    ada.refresh_from_db()
    assert not ada.is_active and ada.username != "ada"
    # Nothing of the two-factor is kept: no secret, no recovery code, no passkey.
    assert not Authenticator.objects.filter(user=ada).exists()


def test_turning_it_off_needs_the_code(ada, clock):
    browser = logged_in(ada, clock)
    clock.advance(31)
    asked = browser.post(reverse("mfa_deactivate_totp"))
    assert asked.status_code == 302 and asked["Location"].startswith(reverse("mfa_reauthenticate"))
    assert twofactor.enabled(ada)
    browser.post(reverse("mfa_reauthenticate"), {"code": code_now(ada.secret, clock)})
    assert browser.post(reverse("mfa_deactivate_totp")).status_code == 302
    assert not twofactor.enabled(ada)


def test_api_tokens_are_not_asked_for_a_code(ada, client):
    token = token_for(ada)
    assert ApiToken.objects.filter(user=ada).exists()
    response = Api(client, token).get("/me")
    assert response.status_code == 200, response.content[:200]


def shown_text(html: str) -> set[str]:
    """The page's visible pieces of text that hold a word."""
    parser = VisibleText()
    parser.feed(html)
    return {" ".join(p.split()) for p in parser.parts if re.search(r"[^\W\d_]{3}", p)}


# Alike in English and another language: names, and words that languages share.
SAME_IN_SOME_LANGUAGE = {
    "Three Thirteen", "3·13", "Menu", "Lobby", "Code", "Code:", "Authenticator code:", "Passkey",
    *(name for _code, name in settings.LANGUAGES),
}  # fmt: skip


def test_every_two_factor_page_is_in_each_language(ada, clock):
    """Each page, rendered in English and in each other language: no piece of text the English
    page shows is left as it was (allauth's Icelandic is the site's: locale_vendor/is)."""
    fresh = UserFactory(username="fresh")  # no two-factor yet: the page that turns it on
    names = {ada.name, ada.username, fresh.name, fresh.username, *ada.codes}
    pages = {
        "ada": ["mfa_index", "mfa_view_recovery_codes", "mfa_generate_recovery_codes",
                "mfa_deactivate_totp", "mfa_reauthenticate"],
        "fresh": ["mfa_index", "mfa_activate_totp", "mfa_add_webauthn", "mfa_list_webauthn"],
    }  # fmt: skip
    seen: dict[str, dict[str, set[str]]] = {}
    for index, (code, _name) in enumerate(settings.LANGUAGES):
        type(ada).objects.filter(pk__in=[ada.pk, fresh.pk]).update(language=code)
        texts = seen[code] = {}
        for who, user in (("ada", ada), ("fresh", fresh)):
            browser = Client()
            browser.force_login(user)
            if who == "ada":
                browser.post(reverse("mfa_reauthenticate"), {"code": ada.codes[-1 - index]})
            else:
                browser.post(reverse("account_reauthenticate"), {"password": PASSWORD})
            for name in pages[who]:
                response = browser.get(reverse(name))
                assert response.status_code == 200, (code, who, name, response.get("Location"))
                texts[f"{who}:{name}"] = shown_text(response.content.decode())
        login = Client(HTTP_ACCEPT_LANGUAGE=code)
        texts["login"] = shown_text(login.get(reverse("account_login")).content.decode())
        password_step(ada, login)
        texts["code"] = shown_text(login.get(reverse("mfa_authenticate")).content.decode())
    left = {
        (code, page): sorted(pieces & seen["en"][page] - SAME_IN_SOME_LANGUAGE - names)
        for code, texts in seen.items()
        if code != "en"
        for page, pieces in texts.items()
    }
    assert not {key: found for key, found in left.items() if found}


def test_another_players_passkey_is_not_theirs_to_rename_or_remove(clock):
    """Past the confirmation, Alice's passkey is a 404 to Bob, and stays as it was."""
    alice, bob = UserFactory(), UserFactory()
    passkey = Authenticator.objects.create(
        user=alice, type=Authenticator.Type.WEBAUTHN, data={"name": "Alice's key"}
    )
    browser = Client()
    browser.force_login(bob)
    browser.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    for name in ("mfa_edit_webauthn", "mfa_remove_webauthn"):
        url = reverse(name, kwargs={"pk": passkey.pk})
        assert browser.get(url).status_code == 404
        assert browser.post(url, {"name": "Bob's now"}).status_code == 404
    passkey.refresh_from_db()
    assert passkey.data == {"name": "Alice's key"}


@pytest.mark.parametrize("code", [code for code, _name in settings.LANGUAGES])
def test_turning_two_factor_off_is_mailed_to_the_player_in_their_language(ada, clock, code):
    """A change to the account (here the authenticator app turned off) is told by mail, with
    where it came from: a change the player did not make is one they hear of."""
    type(ada).objects.filter(pk=ada.pk).update(language=code)
    ada.refresh_from_db()
    browser = logged_in(ada, clock)
    browser.post(reverse("mfa_reauthenticate"), {"code": ada.codes[0]})
    mail.outbox.clear()
    assert browser.post(reverse("mfa_deactivate_totp")).status_code == 302
    [message] = mail.outbox
    assert message.to == [ada.email]
    with translation.override(code):
        expected = [
            translation.gettext("Authenticator app deactivated."),
            translation.gettext(
                "If it was not you, change your password now and turn on two-factor "
                "authentication in Settings."
            ),
        ]
    for line in expected:
        assert line in message.body, (code, line)
    if code != "en":
        assert "Authenticator app deactivated." not in message.body
        assert "If you do not recognize this change" not in message.body
