import pytest
from django.db import IntegrityError
from django.urls import reverse

from accounts.models import User
from accounts.services import BOT_ACCOUNTS, bots_ensure

pytestmark = pytest.mark.django_db


def test_bots_ensure_is_idempotent_and_bots_cannot_log_in():
    first = bots_ensure()
    second = bots_ensure()
    assert [b.pk for b in first] == [b.pk for b in second]
    assert User.objects.filter(is_bot=True).count() == len(BOT_ACCOUNTS)
    assert not any(b.has_usable_password() for b in second)


def test_a_bot_kind_is_required_exactly_for_bots():
    with pytest.raises(IntegrityError):
        User.objects.create(username="halfbot", is_bot=True, bot_kind="")


def test_signup_logs_in_and_shows_display_name(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "ada",
            "display_name": "Ada L.",
            "email": "ada@example.com",
            "password1": "a long enough pass 42",
            "password2": "a long enough pass 42",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert "Ada L." in response.content.decode()
    assert User.objects.get(username="ada").display_name == "Ada L."


def test_signup_with_junk_is_a_400_that_creates_nobody(client):
    response = client.post(reverse("signup"), {"username": "", "password1": "x", "password2": "y"})
    assert response.status_code == 400
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["Ada\nLovelace", "Ada\rL", "Ada\x00", "Ada\u2028L", "\u202eadA"])
def test_a_display_name_with_a_line_break_or_control_character_is_refused(client, name):
    data = {"username": "ada", "display_name": name, "password1": "correct horse battery",
            "password2": "correct horse battery"}  # fmt: skip
    response = client.post(reverse("signup"), data)
    assert response.status_code == 400 and "no line breaks" in response.content.decode()
    assert not User.objects.exists()


def test_one_line_folds_what_older_names_may_hold():
    from accounts.validators import one_line

    assert one_line("Ada\nLove\tlace\u2028 ") == "Ada Love lace"
    assert one_line("Zoë 🂡") == "Zoë 🂡"
