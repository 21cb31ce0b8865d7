"""Names people can trust (accounts/names.py, User.name_key): a display name or a new username
that reads as another account's name, whatever its case, width or compatibility form, or as a
bot's, is refused with a reason; the database refuses it too."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import SITE_BOT_NAMES, User
from accounts.services import bots_ensure, profile_update
from accounts.validators import fold_name, name_shape
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
    assert sorted(keys) == sorted(fold_name(f"bulk{n}") for n in range(3))
    assert len(set(keys)) == 3


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


# Look-alike letters (accounts/lookalikes.py, UTS #39): written with escapes, so that the reader
# of this file sees which letter is which.
CYRILLIC_ALICE = "\u0430lice"  # a Cyrillic a, then Latin letters
CYRILLIC_BRAM = "\u0412ram"  # a Cyrillic capital Ve
ALL_CYRILLIC_PEPE = "\u0440\u0435\u0440\u0435"  # every letter Cyrillic


@pytest.mark.parametrize(
    "name, looks_like",
    [(CYRILLIC_ALICE, "alice"), (ALL_CYRILLIC_PEPE, "pepe"), ("AIice", "Alice"), ("A1ice", "Alice"),
     ("\u0391lice", "Alice"), ("Sarn", "Sam")],
)  # fmt: skip
def test_fold_name_reads_look_alike_letters_as_the_letters_they_pass_for(name, looks_like):
    assert fold_name(looks_like) in (fold_name(name), name_shape(name))


@pytest.mark.parametrize(
    "one, other", [("Petr Novák", "Petr Novak"), ("Ivan", "Iván"), ("Alice", "Alicia")]
)
def test_names_that_read_differently_stay_apart(one, other):
    assert {fold_name(one), name_shape(one)}.isdisjoint({fold_name(other), name_shape(other)})


def test_sign_up_refuses_a_username_with_a_look_alike_letter_and_says_which(client):
    UserFactory(username="alice", display_name="")
    response = signup(client, username=CYRILLIC_ALICE)
    assert response.status_code == 400
    text = response.content.decode()
    assert "CYRILLIC SMALL LETTER A" in text and "another alphabet" in text
    assert not User.objects.filter(email="dave@example.com").exists()


def test_a_name_wholly_in_look_alike_letters_is_refused_and_they_are_named(client):
    UserFactory(username="pepe", display_name="")
    response = signup(client, username=ALL_CYRILLIC_PEPE)
    assert response.status_code == 400
    text = response.content.decode()
    assert "CYRILLIC SMALL LETTER ER" in text and "can pass for other letters" in text


def test_a_look_alike_of_a_username_behind_a_display_name_is_refused(client):
    UserFactory(username="bob1", display_name="Robert")
    assert signup(client, username="bobl").status_code == 400
    assert rename(client, UserFactory(display_name="Dave"), "BOBl").status_code == 400


def test_the_settings_refuse_a_display_name_with_a_look_alike_letter(client):
    UserFactory(username="bram", display_name="")
    dave = UserFactory(display_name="Dave")
    response = rename(client, dave, CYRILLIC_BRAM)
    assert response.status_code == 400
    assert "CYRILLIC CAPITAL LETTER VE" in response.content.decode()
    assert rename(client, dave, "AIice").status_code == 302  # no Alice here: a name like any
    UserFactory(username="alice")
    assert rename(client, UserFactory(display_name="Erin"), "AIice").status_code == 400


@pytest.mark.parametrize("name", ["山田 Taro", "Иван", "Γιάννης", "김 Kim", "Zoë van Dijk"])
def test_names_written_in_one_script_or_a_mix_people_write_are_fine(client, name):
    assert signup(client, display_name=name).status_code == 302


def test_a_name_kept_from_before_the_check_can_stay_while_other_settings_change(client):
    impostor = UserFactory(display_name="Ivan Иван")  # mixed scripts: taken before the check
    assert rename(client, impostor, "Ivan Иван").status_code == 302
    assert rename(client, UserFactory(display_name="Dave"), "Dave Даве").status_code == 400


def test_the_site_bots_are_named_in_the_readers_language(client):
    from django.utils import translation

    hard = next(bot for bot in bots_ensure() if bot.bot_kind == "hard")
    sibling = UserFactory(username="bot-hard-2", display_name="Hard Bot 2", is_bot=True,
                          bot_kind="hard-2")  # fmt: skip
    with translation.override("cs"):
        assert "Bot" not in hard.name and hard.name == str(SITE_BOT_NAMES["Hard Bot"])
        assert sibling.name == f"{SITE_BOT_NAMES['Hard Bot']} 2"
    with translation.override("en"):
        assert hard.name == "Hard Bot" and sibling.name == "Hard Bot 2"
    client.force_login(UserFactory(language="nl"))
    page = client.get(reverse("player", args=[hard.username]), HTTP_ACCEPT_LANGUAGE="nl")
    with translation.override("nl"):
        dutch = str(SITE_BOT_NAMES["Hard Bot"])
    assert dutch in page.content.decode() and dutch != "Hard Bot"


# Names wholly in letters of another script that pass for Latin ones (UTS #39's whole-script
# confusables): the PALOCHKA folds to "i", so no fold of "\u0430\u04cf\u0456\u0441\u0435" meets
# "alice"; the name is refused for what it reads as, whoever else exists.
PALOCHKA_ALICE = "\u0430\u04cf\u0456\u0441\u0435"  # all Cyrillic, shows as "alice"
PALOCHKA_CAROL = "\u0441\u0430\u0433\u043e\u04cf"  # all Cyrillic, shows as "carol"
BORIS = "\u0411\u043e\u0440\u0438\u0441"  # Cyrillic, reads as itself (no Latin "6"-letter)


@pytest.mark.parametrize("name", [PALOCHKA_ALICE, PALOCHKA_CAROL])
def test_sign_up_refuses_a_display_name_wholly_in_letters_that_pass_for_latin(client, name):
    UserFactory(username="alice", display_name="")
    UserFactory(username="carol", display_name="Carol")
    response = signup(client, display_name=name)
    assert response.status_code == 400
    text = response.content.decode()
    assert "reads as one in Latin letters" in text and "CYRILLIC SMALL LETTER PALOCHKA" in text
    assert not User.objects.filter(username="dave").exists()


@pytest.mark.parametrize("name", [PALOCHKA_ALICE, PALOCHKA_CAROL])
def test_the_settings_refuse_a_display_name_wholly_in_letters_that_pass_for_latin(client, name):
    dave = UserFactory(display_name="Dave")  # refused with no Alice or Carol about, too
    response = rename(client, dave, name)
    assert response.status_code == 400
    assert "reads as one in Latin letters" in response.content.decode()
    dave.refresh_from_db()
    assert dave.display_name == "Dave"


@pytest.mark.parametrize("name", [PALOCHKA_ALICE, PALOCHKA_CAROL])
def test_a_username_wholly_in_letters_that_pass_for_latin_is_refused_too(client, name):
    assert signup(client, username=name).status_code == 400
    assert not User.objects.filter(email="dave@example.com").exists()


def test_the_latin_names_and_a_cyrillic_name_that_reads_as_itself_are_fine(client):
    assert signup(client, display_name="alice").status_code == 302
    assert rename(client, UserFactory(display_name="Dave"), "Carol").status_code == 302
    assert rename(client, UserFactory(display_name="Erin"), BORIS).status_code == 302
    client.logout()
    form = {"username": "boris", "email": "boris@example.com", "display_name": f"{BORIS} 2"}
    assert signup(client, **form).status_code == 302
