"""The table as a seat sees it (games/selectors/table.py): "Since your last visit" describes the
moment the table shows, and says where a round ended."""

import pytest
from django.core import mail
from django.urls import reverse

from games.models import Move, Seat
from games.selectors import table, viewer
from tests.factories import UserFactory, play_on, play_one, started_game
from tests.notifications.helpers import send_all

pytestmark = pytest.mark.django_db


def players(game) -> dict:
    return {s.index: s.user for s in game.seats.select_related("user")}


def test_since_your_last_visit_lists_no_move_the_table_does_not_show_yet():
    game = started_game([UserFactory(), UserFactory(), UserFactory()])
    by_seat = players(game)
    first = by_seat[game.to_move_seat]
    play_one(game, by_seat)  # the first to move draws and discards
    play_one(game, by_seat)
    second = game.to_move_seat
    watcher = by_seat[3 - second - (game.to_move_seat - 1) % 3]
    shown, seat = viewer.game_for_viewer(game.pk, watcher)  # the table as read at version 2
    play_one(game, by_seat)  # the next player draws before the list is read
    since = table.table(shown, seat)["since"]
    assert len(since) == 2 and all(line["text"].startswith(first.name) for line in since)


def a_game_just_past_its_first_round():
    """A duel played into round 2 until the player to move is to draw; the player to move has
    not looked since the last turns of round 1. Returns (game, the player to move)."""
    game = started_game([UserFactory(display_name="Ann"), UserFactory(display_name="Ben")])
    play_on(game, until=lambda g: g.round_index == 1 and g.state["phase"] == "draw")
    me = Seat.objects.select_related("user").get(game=game, index=game.to_move_seat)
    last = Move.objects.filter(game=game, round_index=0).order_by("-seq").first()
    Seat.objects.filter(pk=me.pk).update(seen_version=last.seq - 3)
    return game, me.user


def test_since_your_last_visit_says_where_a_round_ended_and_the_next_began(client):
    game, me = a_game_just_past_its_first_round()
    client.force_login(me)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    since = page.split("Since your last visit")[1].split("</section>")[0]
    went_out = next(
        m for m in Move.objects.filter(game=game, round_index=0) if m.record["type"] == "go_out"
    )
    who = game.seats.get(index=went_out.seat).user.name
    change = f"Round 1 ended: {who} went out; round 2 began (4s wild)."
    assert change in since
    lines = since.split("<li")
    at = next(i for i, line in enumerate(lines) if change in line)
    assert all("data-past" in line for line in lines[1:at])  # round 1's moves come before it
    assert all("data-past" not in line for line in lines[at:])


def test_the_turn_mail_says_where_a_round_ended_too():
    _game, me = a_game_just_past_its_first_round()
    send_all(kind="your_turn")
    message = next(m for m in reversed(mail.outbox) if m.to == [me.email])
    assert "Round 1 ended:" in message.body and "round 2 began (4s wild)." in message.body
