"""Shared by the mail tests: two people at a started game, sending what is pending as the worker
would, and reading a sent message."""

import re

from games.models import Notification, Seat
from games.notifications import outbox
from games.notifications.policy import SEAT_NEWS_KINDS
from tests.factories import GameFactory, play_one


def two_people(**options):
    """A started game of two new players, and the players by seat. The news of its start (a
    seat taken, the game started: test_outbox) is left out: these tests look at the turns."""
    game = GameFactory(started=True, **options)
    Notification.objects.filter(kind__in=SEAT_NEWS_KINDS).delete()
    return game, [seat.user for seat in game.seats.order_by("index").select_related("user")]


def seat_to_move(game) -> Seat:
    game.refresh_from_db()
    return game.seats.select_related("user").get(index=game.to_move_seat)


def send_all(kind=None) -> list[str]:
    rows = Notification.objects.filter(status="pending")
    if kind:
        rows = rows.filter(kind=kind)
    return [
        outbox.notification_send(notification_id=pk) for pk in rows.values_list("pk", flat=True)
    ]


def play_turn(game):
    users = {s.index: s.user for s in game.seats.select_related("user")}
    play_one(game, users)
    play_one(game, users)


def html_of(message) -> str:
    return next(body for body, mimetype in message.alternatives if mimetype == "text/html")


def links_in(text: str) -> list[str]:
    return re.findall(r"https?://[^\s\"<>]+", text)


def local(url: str) -> str:
    return url.removeprefix("http://127.0.0.1:8000")
