"""The site in the reader's language: the browser's language for a visitor, the footer's picker,
card names as players of the language say them, and plural forms that follow the language."""

import polib
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.engine import parse_card
from games.presentation import card_info

pytestmark = pytest.mark.django_db


def translated(code: str, msgid: str, context: str | None = None) -> str:
    po = polib.pofile(str(settings.BASE_DIR / "locale" / code / "LC_MESSAGES" / "django.po"))
    entry = po.find(msgid, msgctxt=context) if context else po.find(msgid)
    assert entry and entry.msgstr and not entry.fuzzy, f"{code}: {msgid!r} is not translated"
    return entry.msgstr


@pytest.mark.parametrize("code", ["cs", "id", "is", "hu", "nl"])
def test_a_visitor_gets_the_browsers_language(client, code):
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=f"{code},en;q=0.5").content.decode()
    assert f'<html lang="{code}">' in html
    assert translated(code, "I have an account") in html


def test_the_picker_switches_the_language_and_keeps_it(client):
    response = client.post(reverse("set_language"), {"language": "cs", "next": reverse("home")})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="cs">' in html and translated("cs", "I have an account") in html
    assert 'value="cs" lang="cs" selected' in html


def test_card_names_in_czech_and_dutch_decks():
    queen = parse_card("QH")
    with translation.override("nl"):
        info = card_info(queen)
        assert info.rank == translated("nl", "Q", context="card corner: queen")
        assert translated("nl", "hearts") in info.name and translated("nl", "queen") in info.name
    with translation.override("cs"):
        assert translated("cs", "queen") in card_info(queen).name


def test_czech_has_three_plural_forms():
    with translation.override("cs"):
        forms = {
            translation.ngettext("%(t)s point", "%(t)s points", n) % {"t": n} for n in (1, 3, 7)
        }
    assert len({form.split(" ", 1)[1] for form in forms}) == 3, forms


def test_a_players_language_follows_them_over_the_browsers_and_the_picker_stores_it(client):
    from tests.factories import UserFactory

    player = UserFactory(language="hu")
    client.force_login(player)
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="hu">' in html and translated("hu", "My games") in html
    client.post(reverse("set_language"), {"language": "is", "next": "/"})
    player.refresh_from_db()
    assert player.language == "is"
    assert '<html lang="is">' in client.get(reverse("home")).content.decode()


def test_a_new_player_keeps_the_language_they_signed_up_in(client):
    from accounts.models import User

    password = "a long enough pass 42"
    data = {"username": "jana", "email": "jana@example.com", "password1": password,
            "password2": password}  # fmt: skip
    client.post(reverse("account_signup"), data, HTTP_ACCEPT_LANGUAGE="cs")
    assert User.objects.get(username="jana").language == "cs"


def test_mail_goes_out_in_the_recipients_language():
    from django.core import mail

    from tests.notifications.helpers import seat_to_move, send_all, two_people

    game, _users = two_people()
    to_move = seat_to_move(game).user
    type(to_move).objects.filter(pk=to_move.pk).update(language="nl")
    assert send_all() == ["sent"]
    expected = translated("nl", "Your turn in game #%(n)d") % {"n": game.pk}
    assert mail.outbox[-1].subject == expected
