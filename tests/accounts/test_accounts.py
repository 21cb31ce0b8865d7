"""Accounts (django-allauth and accounts/): sign-up with a verified address, login by username or
email, logout, password reset and change, a changed address used only once verified, guessing
refused with 429 before any password is hashed, and older accounts carried over."""

import re
from importlib import import_module

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import IntegrityError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from accounts.selectors import verified_email
from accounts.services import BOT_ACCOUNTS, bots_ensure
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def signup(client, **fields):
    data = {"username": "ada", "display_name": "Ada L.", "email": "ada@example.com",
            "password1": "a long enough pass 42", "password2": "a long enough pass 42"}  # fmt: skip
    data.update(fields)
    return client.post(reverse("account_signup"), data)


def link_in(message) -> str:
    return re.search(r"https?://\S+/accounts/\S+/", message.body).group(0)


def test_bots_ensure_is_idempotent_and_bots_cannot_log_in():
    first = bots_ensure()
    second = bots_ensure()
    assert [b.pk for b in first] == [b.pk for b in second]
    assert User.objects.filter(is_bot=True).count() == len(BOT_ACCOUNTS)
    assert not any(b.has_usable_password() for b in second)


def test_a_bot_kind_is_required_exactly_for_bots():
    with pytest.raises(IntegrityError):
        User.objects.create(username="halfbot", is_bot=True, bot_kind="")


def test_signup_logs_in_sends_a_link_and_the_link_verifies_the_address(client):
    response = signup(client)
    assert response.status_code == 302
    ada = User.objects.get(username="ada")
    assert ada.display_name == "Ada L." and ada.email == "ada@example.com"
    assert "Ada L." in client.get(reverse("home")).content.decode()  # logged in, named
    assert verified_email(ada) == ""  # no mail about games before the address is confirmed
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ada@example.com"]
    confirm = link_in(mail.outbox[0])
    page = client.get(confirm)
    assert page.status_code == 200 and "ada@example.com" in page.content.decode()
    assert client.post(confirm).status_code == 302
    assert verified_email(ada) == "ada@example.com"


def test_signup_needs_an_email_and_junk_is_a_400_that_creates_nobody(client):
    assert signup(client, email="").status_code == 400
    response = client.post(reverse("account_signup"), {"username": "", "password1": "x"})
    assert response.status_code == 400
    assert not User.objects.exists()


def test_an_address_or_a_username_already_taken_is_refused(client):
    UserFactory(username="taken", email="taken@example.com")
    assert signup(client, email="Taken@Example.com").status_code == 400
    assert signup(client, username="taken", email="new@example.com").status_code == 400
    assert User.objects.count() == 1


# Every bidirectional control: the Arabic letter mark, the left-to-right and right-to-left marks,
# the embeddings and overrides, the isolates. A mark can move a name's digits and punctuation
# about, enough to pass for another player's name; an override makes it read backwards.
BIDI_CONTROLS = ["\u061c", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)),
                 *map(chr, range(0x2066, 0x206A))]  # fmt: skip


@pytest.mark.parametrize(
    "name",
    ["Ada\nLovelace", "Ada\rL", "Ada\x00", "Ada\u2028L", *(f"Ada{c}42" for c in BIDI_CONTROLS)],
)
def test_a_display_name_with_a_line_break_or_control_character_is_refused(client, name):
    response = signup(client, display_name=name)
    assert response.status_code == 400 and "no line breaks" in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize("control", BIDI_CONTROLS)
def test_a_display_name_in_the_settings_or_a_username_with_a_bidi_control_is_refused(
    client, control
):
    assert signup(client, username=f"ada{control}42").status_code == 400
    assert not User.objects.exists()
    me = UserFactory(display_name="Before")
    client.force_login(me)
    form = {"section": "profile", "display_name": f"Ada{control}42", "time_zone": "UTC"}
    response = client.post(reverse("notification_preferences"), {**form, "language": "en"})
    assert response.status_code == 400 and "no line breaks" in response.content.decode()
    me.refresh_from_db()
    assert me.display_name == "Before"


def test_one_line_folds_what_older_names_may_hold():
    from accounts.validators import one_line

    assert one_line("Ada\nLove\tlace\u2028 ") == "Ada Love lace"
    assert one_line("Zoë 🂡") == "Zoë 🂡"


@pytest.mark.parametrize("by", ["username", "email", "EMAIL"])
def test_login_by_username_or_email_then_logout(client, by):
    user = UserFactory(email="Bea@Example.com")
    login = {"username": user.username, "email": "bea@example.com", "EMAIL": "BEA@example.COM"}
    response = client.post(reverse("account_login"), {"login": login[by], "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == user
    assert client.post(reverse("account_logout")).status_code == 302
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_a_wrong_password_is_a_400_with_a_message(client):
    user = UserFactory()
    response = client.post(reverse("account_login"), {"login": user.username, "password": "no"})
    assert response.status_code == 400
    assert "not correct" in response.content.decode()


@pytest.mark.parametrize("by", ["username", "email"])
def test_a_wrong_password_costs_one_hash_whether_the_account_exists_or_not(client, hashes, by):
    """Were an unknown address cheaper to refuse than a registered one, the time a wrong login
    takes would tell which addresses have an account. Counted, not timed: one password hashed
    for each (against a dummy for no one), by username as by email."""
    user = UserFactory(email="known@example.com")
    known, unknown = {"username": (user.username, "nobody"),
                      "email": ("known@example.com", "nobody@example.com")}[by]  # fmt: skip
    cost = {}
    for login in (known, unknown):
        hashes.count = 0
        response = client.post(reverse("account_login"), {"login": login, "password": "wrong"})
        assert response.status_code == 400
        cost[login] = hashes.count
    assert cost == {known: 1, unknown: 1}
    hashes.count = 0
    right = client.post(reverse("account_login"), {"login": known, "password": PASSWORD})
    assert right.status_code == 302 and hashes.count == 1


def test_guessing_is_refused_with_429_even_for_the_right_password(client):
    """Five failures for one account from one address in five minutes, then every try from there
    is refused before the password is checked (so before any hashing): the right password too,
    until the limit ends."""
    user = UserFactory()
    for attempt in range(5):
        response = client.post(
            reverse("account_login"), {"login": user.username, "password": f"guess {attempt}"}
        )
        assert response.status_code == 400
    refused = client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})
    assert refused.status_code == 429
    assert "Too many failed login attempts" in refused.content.decode()
    assert not client.get(reverse("home")).context["user"].is_authenticated
    other = UserFactory()  # another account, from the same address, is still let in
    data = {"login": other.username, "password": PASSWORD}
    assert client.post(reverse("account_login"), data).status_code == 302


def login_from(address: str, login: str, password: str):
    return Client(REMOTE_ADDR=address).post(
        reverse("account_login"), {"login": login, "password": password}
    )


def test_a_strangers_guesses_from_elsewhere_do_not_lock_the_owner_out():
    """Five wrong passwords for a username from any address made the owner's right password,
    from another address, answer 429 for five minutes: anyone could lock a player out. An
    account's failures are counted per address: the stranger's is refused, the owner's is not."""
    user = UserFactory()
    for attempt in range(5):
        assert login_from("203.0.113.9", user.username, f"guess {attempt}").status_code == 400
    assert login_from("203.0.113.9", user.username, PASSWORD).status_code == 429
    assert login_from("198.51.100.7", user.username, PASSWORD).status_code == 302


def test_one_address_guesses_an_account_ten_times_an_hour_at_most(clock):
    user = UserFactory()
    for attempt in range(10):
        if attempt == 5:
            assert login_from("203.0.113.9", user.username, PASSWORD).status_code == 429
            clock.advance(5 * 60)
        assert login_from("203.0.113.9", user.username, f"guess {attempt}").status_code == 400
    clock.advance(5 * 60)
    assert login_from("203.0.113.9", user.username, PASSWORD).status_code == 429
    clock.advance(50 * 60)
    assert login_from("203.0.113.9", user.username, PASSWORD).status_code == 302


def test_guesses_from_many_addresses_meet_the_accounts_ceiling_and_are_told_the_way_round(hashes):
    """Thirty failures in an hour for one username or address, from anywhere (six addresses
    here, five each; no address alone may make more than ten), and every try for it is refused
    before any hashing, the owner's too: the message says how to get in all the same, by the
    email address instead of the username (the ceiling counts what was typed) or a reset link."""
    user = UserFactory()
    for n in range(30):
        assert login_from(f"203.0.113.{n // 5 + 1}", user.username, f"guess {n}").status_code == 400
    hashes.count = 0
    refused = login_from("198.51.100.7", user.username, PASSWORD)
    assert refused.status_code == 429 and hashes.count == 0
    page = refused.content.decode()
    assert "log in with your email address instead" in page
    assert reverse("account_reset_password") in page  # the link below the password
    assert login_from("198.51.100.7", user.email, PASSWORD).status_code == 302


def test_behind_the_proxy_each_client_is_counted_at_its_own_address(settings):
    """Every request reaches the site from the proxy's address; the client's is the one the proxy
    appends to X-Forwarded-For (production trusts one proxy), so one client's guesses hold back
    that client alone."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    user = UserFactory()

    def login(client_address, password):
        proxy = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"10.9.9.9, {client_address}")
        data = {"login": user.username, "password": password}
        return proxy.post(reverse("account_login"), data)

    for attempt in range(5):
        assert login("203.0.113.9", f"guess {attempt}").status_code == 400
    assert login("203.0.113.9", PASSWORD).status_code == 429
    assert login("198.51.100.7", PASSWORD).status_code == 302


def test_password_reset_by_mail_sets_a_new_password(client):
    user = UserFactory()
    response = client.post(reverse("account_reset_password"), {"email": user.email})
    assert response.status_code == 302 and len(mail.outbox) == 1
    key_url = link_in(mail.outbox[0])
    form_url = client.get(key_url)["Location"]  # the key moves from the URL into the session
    new = "another long pass phrase 7"
    response = client.post(form_url, {"password1": new, "password2": new})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_a_password_reset_lets_its_address_log_in_again_at_once():
    """Ten wrong passwords (for names that are not the owner's) hold the address back for the
    rest of its minute; the reset mail proves who is there, so the reset made from that address
    forgets its failures, and the new password logs in from it at once."""
    user = UserFactory()
    for n in range(10):
        assert login_from("203.0.113.9", f"nobody-{n}", "guess").status_code == 400
    assert login_from("203.0.113.9", user.username, PASSWORD).status_code == 429
    client = Client(REMOTE_ADDR="203.0.113.9")
    assert client.post(reverse("account_reset_password"), {"email": user.email}).status_code == 302
    form_url = client.get(link_in(mail.outbox[-1]))["Location"]
    new = "another long pass phrase 7"
    assert client.post(form_url, {"password1": new, "password2": new}).status_code == 302
    assert login_from("203.0.113.9", user.username, new).status_code == 302


def test_an_ipv6_client_is_counted_by_its_network():
    """An IPv6 client holds a whole /64: a new address from it for every guess is still one
    address to the limits."""
    for n in range(10):
        assert login_from(f"2001:db8:1:2::{n + 1:x}", f"nobody-{n}", "guess").status_code == 400
    assert login_from("2001:db8:1:2::ff", "nobody", "guess").status_code == 429
    assert login_from("2001:db8:1:3::1", "nobody", "guess").status_code == 400


def test_password_reset_for_an_unknown_address_tells_nothing(client):
    UserFactory(email="real@example.com")
    response = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert response.status_code == 302  # the same answer as for a known address
    assert "real@example.com" not in str([m.to for m in mail.outbox])


def test_change_password_keeps_the_player_logged_in(client):
    user = UserFactory()
    client.force_login(user)
    new = "a fresh pass phrase 3"
    data = {"oldpassword": PASSWORD, "password1": new, "password2": new}
    assert client.post(reverse("account_change_password"), data).status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)
    assert client.get(reverse("home")).context["user"] == user


def test_changing_the_address_asks_for_the_password_first(client):
    """A stolen session must not be enough to take the account: a new address, then a password
    reset mailed to it. The change waits for the password (allauth's reauthentication, which
    shares the limit on wrong passwords: tests/views/test_account.py)."""
    user = UserFactory(email="old@example.com")
    client.force_login(user)
    add = {"action_add": "", "email": "new@example.com"}
    response = client.post(reverse("account_email"), add)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_reauthenticate"))
    assert not EmailAddress.objects.filter(email="new@example.com").exists() and not mail.outbox
    wrong = client.post(response["Location"], {"password": "not it"})
    assert wrong.status_code == 400 and not mail.outbox
    done = client.post(response["Location"], {"password": PASSWORD})
    assert done.status_code == 302
    assert EmailAddress.objects.filter(user=user, email="new@example.com").exists()
    assert mail.outbox[-1].to == ["new@example.com"]


def test_the_password_is_the_only_way_to_confirm_access(client):
    """Sign-in codes are off on this site (their mail is not the site's own): confirming access
    offers no code by mail, and its address is refused."""
    client.force_login(UserFactory())
    page = client.get(reverse("account_reauthenticate"))
    assert page.status_code == 200 and "sign-in code" not in page.content.decode()
    code = client.get(reverse("account_request_reauthentication_code"))
    assert code.status_code == 403 and not mail.outbox


def test_a_new_address_is_used_only_once_verified(client):
    user = UserFactory(email="old@example.com")
    client.force_login(user)
    asked = client.post(reverse("account_email"), {"action_add": "", "email": "new@example.com"})
    response = client.post(asked["Location"], {"password": PASSWORD})  # who it is, first
    assert response.status_code == 302
    user.refresh_from_db()
    assert verified_email(user) == "old@example.com"  # mail still goes to the old address
    confirm = link_in(mail.outbox[-1])
    assert mail.outbox[-1].to == ["new@example.com"]
    client.post(confirm)
    user.refresh_from_db()
    assert user.email == "new@example.com" and verified_email(user) == "new@example.com"
    assert not EmailAddress.objects.filter(email="old@example.com").exists()


def test_older_accounts_get_their_address_carried_over_by_the_migration():
    """The data migration: an address in use becomes the primary, verified address; a second
    account with the same address must confirm it; no address, nothing."""
    migration = import_module("accounts.migrations.0006_email_addresses")
    from django.apps import apps

    first = UserFactory(email="same@example.com", verified=None)
    EmailAddress.objects.all().delete()
    second = User.objects.create_user("second", "same@example.com", PASSWORD)
    without = User.objects.create_user("without", "", PASSWORD)
    migration.addresses_create(apps, None)
    rows = {e.user_id: e for e in EmailAddress.objects.all()}
    assert rows[first.pk].verified and rows[first.pk].primary
    assert not rows[second.pk].verified
    assert without.pk not in rows
    assert verified_email(first) == "same@example.com" and verified_email(second) == ""


def test_an_address_over_its_login_limit_is_refused_before_anything_runs(clock):
    """An address past its own limit (10 failed logins a minute) is answered 429 by the first
    middleware (accounts/refusals.py): no query, no session, no user; a refusal of what was typed
    from it (per account and address) is not remembered for the address; the owner from
    elsewhere logs in meanwhile, and the address itself once its minute has passed."""
    user = UserFactory()
    for attempt in range(5):
        assert login_from("203.0.113.9", user.username, f"guess {attempt}").status_code == 400
    assert login_from("203.0.113.9", user.username, "guess").status_code == 429  # the account's
    assert login_from("203.0.113.9", "nobody-0", "guess").status_code == 400  # not the address's
    statuses = [login_from("203.0.113.9", f"nobody-{n}", "guess").status_code for n in range(5)]
    assert statuses == [400, 400, 400, 400, 429]  # ten wrong passwords from the address: refused
    client = Client(REMOTE_ADDR="203.0.113.9")
    with CaptureQueriesContext(connection) as queries:
        refused = client.post(reverse("account_login"), {"login": "x", "password": "y"})
    assert refused.status_code == 429 and len(queries) == 0
    assert 0 < int(refused["Retry-After"]) <= 60 and not refused.cookies
    request = refused.wsgi_request
    assert not hasattr(request, "session") and not hasattr(request, "user")
    assert "Too many failed login attempts" in refused.content.decode()
    assert login_from("198.51.100.7", user.username, PASSWORD).status_code == 302
    clock.advance(61)  # the address's minute; the owner's name from it waits its own 5 minutes
    assert login_from("203.0.113.9", user.email, PASSWORD).status_code == 302


@pytest.mark.parametrize(
    "url, heading",
    [
        ("/accounts/confirm-email/junk-key/", "Confirm email address"),
        ("/accounts/password/reset/", "Password reset"),
        ("/accounts/password/reset/done/", "Password reset"),
    ],
)
def test_allauths_pages_write_headings_in_the_sites_sentence_case(client, url, heading):
    """allauth's own English is Title Case ("Confirm Email Address"); the site writes sentence
    case everywhere (locale_vendor/en)."""
    page = client.get(url).content.decode()
    assert heading in page and heading.title() not in page
