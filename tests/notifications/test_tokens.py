"""The one-click unsubscribe (games/notifications/tokens.py): the headers every mail carries,
the signed token, and a token that is not ours."""

import email.policy
import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.selectors import preferences_of
from games.errors import GameError
from games.models import Notification
from games.notifications import tokens
from tests.factories import UserFactory
from tests.notifications.helpers import (
    html_of,
    local,
    play_turn,
    seat_to_move,
    send_all,
    two_people,
)

pytestmark = pytest.mark.django_db


def test_every_mail_has_list_unsubscribe_headers_whose_one_click_post_works(client):
    game, _users = two_people()
    seat = seat_to_move(game)
    send_all()
    message = mail.outbox[0]
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert url in message.body and url in html_of(message)
    # A GET (a link scanner, say) changes nothing.
    page = client.get(local(url))
    assert page.status_code == 200 and "emails about your turns" in page.content.decode()
    assert preferences_of(seat.user).turn_mail == "each"
    # The mail client's one-click POST: no session, no CSRF token.
    client.logout()
    client.handler.enforce_csrf_checks = True
    response = client.post(
        local(url), "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert preferences_of(seat.user).turn_mail == "off"
    # And the next turn of theirs brings no mail.
    play_turn(game)
    play_turn(game)
    assert not Notification.objects.filter(user=seat.user, turn__gt=0).exclude(status="skipped")


def test_the_list_unsubscribe_header_stays_readable_with_a_real_site_address(settings):
    settings.SITE_URL = "https://threethirteen-by-post.example.org"
    two_people()
    send_all()
    raw = mail.outbox[0].message(policy=email.policy.SMTP).as_bytes().decode()
    header = re.search(r"^List-Unsubscribe:(.*\r\n(?:[ \t].*\r\n)*)", raw, re.MULTILINE)[1]
    assert "=?" not in header
    assert header.strip() == mail.outbox[0].extra_headers["List-Unsubscribe"]
    assert header.strip().startswith("<https://threethirteen-by-post.example.org/u/")


def test_a_tampered_or_foreign_unsubscribe_token_does_nothing(client):
    user = UserFactory()
    token = tokens.unsubscribe_token(user, "reminders")
    tampered = reverse("unsubscribe", kwargs={"token": token[:-2] + "xx"})
    assert client.get(tampered).status_code == 404
    assert client.post(reverse("unsubscribe", kwargs={"token": "junk"})).status_code == 404
    user_id, _topic, mac = token.split(".")
    flipped = mac[:-1] + ("1" if mac.endswith("0") else "0")
    for forged in (f"{user_id}.t.{mac}", f"{user_id}.r.{flipped}", f"{UserFactory().pk}.r.{mac}"):
        with pytest.raises(GameError):
            tokens.unsubscribe(token=forged)
    assert preferences_of(user).reminders is True
    tokens.unsubscribe(token=token)
    assert preferences_of(user).reminders is False
