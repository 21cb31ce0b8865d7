"""Names people can trust (accounts/names.py, User.name_key): a display name or a new username
that reads as another account's name, whatever its case, width or compatibility form, or as a
bot's, is refused with a reason; the database refuses it too."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from accounts.services import bots_ensure, profile_update
from accounts.validators import fold_name
from tests.factories import UserFactory, signup, wide

pytestmark = pytest.mark.django_db


def rename(client, user, name):
    client.force_login(user)
    form = {"section": "profile", "display_name": name, "time_zone": "UTC", "language": "en"}
    return client.post(reverse("notification_preferences"), form)


@pytest.mark.parametrize(
    "name", ["Alice", "aLiCe", "ALICE", wide("alice"), "Al\u200bice", " alice ", "Al\u200dice"]
)
def test_fold_name_reads_names_as_people_do(name):
    assert fold_name(name) == "alice"


def test_fold_name_keeps_different_names_apart():
    assert fold_name("Alice") != fold_name("Alicia")
    assert fold_name("ﬁona") == fold_name("FIONA")  # a ligature is its letters


@pytest.mark.parametrize("name", ["Alice", "ALICE", wide("alice"), "Al\u00adice"])
def test_a_display_name_another_player_shows_is_refused_in_the_settings(client, name):
    UserFactory(display_name="Alice")
    dave = UserFactory(display_name="Dave")
    response = rename(client, dave, name)
    assert response.status_code == 400
    assert "Another player goes by that name" in response.content.decode()
    dave.refresh_from_db()
    assert dave.display_name == "Dave"


def test_a_display_name_that_is_another_accounts_username_is_refused(client):
    UserFactory(username="alice", display_name="Queen of Hearts")
    dave = UserFactory(display_name="Dave")
    assert rename(client, dave, "ALICE").status_code == 400
    assert rename(client, dave, "Queen of hearts").status_code == 400
    assert rename(client, dave, "Alice Liddell").status_code == 302


def test_ones_own_username_in_other_letters_is_fine(client):
    alice = UserFactory(username="alice", display_name="")
    assert rename(client, alice, "Alice").status_code == 302
    alice.refresh_from_db()
    assert alice.name == "Alice"


@pytest.mark.parametrize("name", ["Hard Bot", "hard bot", "Medium Bot 7", "bot-hard", "BOT-easy-3"])
def test_a_bots_name_is_refused_even_for_a_seat_not_yet_made(client, name):
    bots_ensure()
    dave = UserFactory(display_name="Dave")
    response = rename(client, dave, name)
    assert response.status_code == 400
    assert "kept for the site" in response.content.decode()


def test_the_service_refuses_it_too():
    UserFactory(display_name="Alice")
    dave = UserFactory(display_name="Dave")
    with pytest.raises(Exception) as refused:
        profile_update(user=dave, display_name=wide("ALICE"))
    assert "display_name" in refused.value.message_dict


def test_the_database_refuses_two_accounts_showing_one_name():
    UserFactory(display_name="Alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        UserFactory(display_name=wide("alice"))
    with pytest.raises(IntegrityError), transaction.atomic():
        UserFactory(username="ALICE", display_name="")  # shown by the username
    dave = UserFactory(display_name="Dave")
    dave.display_name = "alice"
    with pytest.raises(IntegrityError), transaction.atomic():
        dave.save(update_fields=["display_name"])  # a partial save writes the key too


def test_bulk_created_accounts_get_their_keys():
    made = User.objects.bulk_create(User(username=f"bulk{n}") for n in range(3))
    keys = User.objects.filter(pk__in=[u.pk for u in made]).values_list("name_key", flat=True)
    assert sorted(keys) == ["bulk0", "bulk1", "bulk2"]


def test_sign_up_refuses_a_display_name_taken_or_a_bots(client):
    bots_ensure()
    UserFactory(username="alice", display_name="Queen")
    assert signup(client, display_name="QUEEN").status_code == 400
    assert signup(client, display_name="Alice").status_code == 400
    assert signup(client, display_name="Hard Bot 3").status_code == 400
    assert not User.objects.filter(username="dave").exists()
    assert signup(client, display_name="Dave").status_code == 302


@pytest.mark.parametrize("username", ["Queen", wide("QUEEN"), "bot-hard-9", "Bot-anything"])
def test_sign_up_refuses_a_username_that_is_anothers_name_or_a_bots(client, username):
    bots_ensure()
    UserFactory(username="alice", display_name="Queen")
    response = signup(client, username=username)
    assert response.status_code == 400
    assert not User.objects.filter(email="dave@example.com").exists()


def test_a_username_is_kept_in_nfkc(client):
    assert signup(client, username=wide("dave")).status_code == 302
    assert User.objects.filter(username="dave").exists()


def test_a_name_taken_between_the_forms_check_and_the_save_is_a_400_not_a_500(client, monkeypatch):
    """Another player took the name after the form looked (the form's check passes here)."""
    UserFactory(display_name="Alice")
    monkeypatch.setattr("accounts.forms.validate_display_name", lambda name, user=None: None)
    response = rename(client, UserFactory(display_name="Dave"), "ALICE")
    assert response.status_code == 400
    assert "Another player goes by that name" in response.content.decode()


def test_a_name_taken_while_signing_up_is_a_400_not_a_500(client, monkeypatch):
    """Two sign-ups of one name at once: both forms' checks pass, the second save finds it taken
    (the form's check passes here, as it did for both)."""
    UserFactory(display_name="Alice")
    monkeypatch.setattr("accounts.forms.validate_display_name", lambda name, user=None: None)
    response = signup(client, display_name="ALICE")
    assert response.status_code == 400
    assert "Another player goes by that name" in response.content.decode()
    assert not User.objects.filter(username="dave").exists()
    assert signup(client, display_name="Dave").status_code == 302
