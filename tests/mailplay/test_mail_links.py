"""A turn mail's one-click links (games/mailplay/links.py, views.mail.mail_turn): opening one moves
nothing, its button plays it, logged out, for that turn only."""

import re

import pytest
from django.urls import reverse

from games.engine import GameState
from games.models import Game
from games.notifications.reply_tokens import TurnRef, turn_token
from tests.factories import UserFactory, started_game
from tests.notifications.helpers import send_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def turn(settings, mailoutbox):
    settings.MAIL_PLAY_ADDRESS = "play@localhost"
    game = started_game([UserFactory(), UserFactory()])
    seat = game.seats.select_related("user").get(index=game.to_move_seat)
    return game, seat


def link(game, seat, action):
    return reverse(
        "mail_turn", args=[turn_token(TurnRef(game.pk, seat.index, game.version, action))]
    )


def version(game):
    return Game.objects.get(pk=game.pk).version


def test_the_turn_mail_carries_a_link_for_each_draw(turn, mailoutbox):
    _game, seat = turn
    send_all("your_turn")
    mail = next(m for m in mailoutbox if m.to == [seat.user.email])
    urls = re.findall(r"https?://\S+/mail/turn/\S+/", mail.body)
    assert len(urls) == 2 and "Draw from the stock" in mail.body and "Take the " in mail.body


def test_opening_a_link_moves_nothing_and_its_button_plays_it_logged_out(client, turn):
    game, seat = turn
    url, version_before = link(game, seat, "stock"), game.version
    page = client.get(url)
    assert page.status_code == 200 and "Draw from the stock" in page.content.decode()
    assert version(game) == game.version
    answer = client.post(url)
    assert answer.status_code == 200 and version(game) == game.version + 1
    html = answer.content.decode()
    assert "Now discard, or go out" in html
    discard = re.search(r'action="(https?://[^"]+/mail/turn/[^"]+/)"', html).group(1)
    assert client.post(discard.split("testserver", 1)[-1]).status_code == 200
    game.refresh_from_db()
    assert game.version == version_before + 2 and game.to_move_seat != seat.index


def test_a_link_is_for_its_turn_only(client, turn):
    game, seat = turn
    url = link(game, seat, "stock")
    client.post(url)
    moved = version(game)
    again = client.post(url)
    assert again.status_code == 409 and version(game) == moved
    stale = client.get(url)
    assert stale.status_code == 409 and "mail-hand" not in stale.content.decode()


@pytest.mark.parametrize("token", ["junk", "1-0-0-stock-" + "0" * 24])
def test_a_forged_link_is_a_404(client, turn, token):
    game, _seat = turn
    assert client.get(reverse("mail_turn", args=[token])).status_code == 404
    assert client.post(reverse("mail_turn", args=[token])).status_code == 404
    assert version(game) == game.version


def test_a_discard_link_of_a_card_not_held_is_refused(client, turn):
    game, seat = turn
    client.post(link(game, seat, "stock"))
    game.refresh_from_db()
    held = {(c.rank, c.suit) for c in GameState.from_dict(game.state).view(seat.index).hand}
    absent = next(f"{r}{s}" for r in range(2, 10) for s in "hsdc" if (r, s.upper()) not in held)
    answer = client.post(link(game, seat, f"d.{absent}"))
    assert answer.status_code == 400 and version(game) == game.version


def test_a_link_speaks_its_players_language_to_a_browser_logged_out(client, turn):
    """The page follows a mail in the player's language: a phone's mail app opens it logged out,
    its browser set to another language."""
    game, seat = turn
    seat.user.language = "nl"
    seat.user.save(update_fields=["language"])
    page = client.get(link(game, seat, "stock"), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert "Pak van de trekstapel" in page.content.decode()


def test_after_a_draw_the_discards_follow_the_hands_order_and_the_new_card_is_marked(client, turn):
    """The page after a draw by link listed the discards in the legal actions' order, not the
    hand's, and did not say which card was just drawn."""
    from games.presentation import card_info, sort_hand

    game, seat = turn
    answer = client.post(link(game, seat, "stock")).content.decode()
    game.refresh_from_db()
    view = GameState.from_dict(game.state).view(seat.index)
    seat.refresh_from_db()
    hand = [card_info(c, view.wild_rank).label for c in sort_hand(view.hand, seat, view.wild_rank)]
    section = answer.split('<div class="mail-next">', 1)[1].split("</div>", 1)[0]
    buttons = re.findall(r'<button type="submit" class="button small[^"]*">([^<]+)', section)
    discards = [b.strip() for b in buttons if not b.startswith("Out with")]
    assert discards == list(dict.fromkeys(hand))
    drawn = card_info(view.hand[-1], view.wild_rank).label
    marked = re.findall(r'class="button small just-drawn">([^<]+)', section)
    assert [m.strip() for m in marked] == [drawn] and '<span class="badge">new</span>' in section
