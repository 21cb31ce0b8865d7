"""Whatever a player types shows as text, never as markup: display names, chat messages and the
names or addresses an invitation is sent to, in every page the site renders (every GET pattern,
as each of the players) and in every kind of mail (HTML escaped; the plain text as typed)."""

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import chat
from games.models import Notification
from games.notifications import compose, previews
from tests.urlwalk import is_admin, url_of, walk, world_build

pytestmark = pytest.mark.django_db

ALICE = "<em>Al</em>"
BOB = '"><script>b()</script>'
CHAT = "<img src=x onerror=alert(1)>"
WHO = "<u>who</u>@example.org"
MARKUP = [ALICE, BOB, CHAT, WHO, "<em>", "<script>b", "<img", "<u>"]


@pytest.fixture
def world(db):
    world = world_build()
    alice, bob, _carol = world["victims"]
    alice.display_name, bob.display_name = ALICE, BOB
    alice.save(update_fields=["display_name"])
    bob.save(update_fields=["display_name"])
    game, _waiting = world["games"]
    chat.chat_post(game_id=game.pk, user=bob, text=CHAT)
    return world


def raw_markup(html: str) -> list[str]:
    return [mark for mark in MARKUP if mark in html]


def test_no_page_shows_what_players_typed_as_markup(world):
    alice, bob, _carol = world["victims"]
    _game, waiting = world["games"]
    client = Client()
    client.force_login(alice)
    invited = client.post(reverse("game_invite", args=[waiting.pk]), {"who": WHO}, follow=True)
    assert invited.status_code == 200 and not raw_markup(invited.content.decode())
    found, shown = {}, ""
    for user in (alice, bob):
        client.force_login(user)
        for route, name in walk():
            if is_admin(name):
                continue
            url = url_of(route, name, world["args"])
            pages = [client.get(url)]
            if name in ("game", "game_chat"):
                pages.append(client.get(reverse(name, args=[waiting.pk])))
            if name == "game_table":
                pages.append(client.get(url, HTTP_HX_REQUEST="true"))
            for response in pages:
                if not response.get("Content-Type", "").startswith("text/html"):
                    continue  # the data download is JSON, an attachment: names as typed
                body = response.content.decode(errors="replace")
                shown += body
                if problems := raw_markup(body):
                    found[f"{user.username} {url}"] = problems
    assert not found
    # The names, the message and the address were on the pages, as text.
    for typed in (ALICE, BOB, CHAT, WHO):
        assert escape(typed) in shown, typed


@pytest.mark.parametrize("kind", Notification.Kind.values)
def test_no_mail_shows_a_name_as_markup(world, kind):
    alice = world["victims"][0]
    subject, text, html = compose.render_email(kind, previews.sample_context(kind, alice))
    assert not raw_markup(html) and escape(ALICE) in html
    assert ALICE in text or ALICE in subject  # the plain text says it as typed


def test_an_invitation_mail_from_a_host_with_markup_in_the_name_is_escaped(world):
    carol = world["victims"][2]
    row = Notification.objects.get(user=carol, kind=Notification.Kind.INVITATION)
    compose.compose(row).send()
    message = mail.outbox[-1]
    html = message.alternatives[0].content
    assert not raw_markup(html) and escape(ALICE) in html
    assert ALICE in message.subject and ALICE in message.body
