"""A whole game against a bot played by mail alone: a real SMTP client answers each turn mail to
the SMTP server process `manage.py serve` runs (`manage.py mail_server`, games/mailplay/smtp.py),
a real Celery worker on Redis plays the bot and sends the mails; and again by the mails' one-click
links, logged out."""

import itertools
import re
import smtplib
import sys
from dataclasses import dataclass

import pytest
from django.core import mail
from django.test import Client

from games import services
from games.engine import Rules
from games.models import Game, InboundMail, Move
from tests.factories import UserFactory
from tests.workers import site_process, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
MAX_TURNS = 400  # a game of 11 rounds takes Ann some 80 turns: a bound, never reached


@dataclass
class SmtpServer:
    hostname: str
    port: int


# `manage.py mail_server`, with the two-round games of the short_games fixture.
MAIL_SERVER = (
    "import sys; from games.engine import rules; rules.ROUND_SCHEDULES['classic'] = (3, 4); "
    "from django.core.management import execute_from_command_line; "
    "execute_from_command_line(['manage.py', 'mail_server', sys.argv[1]])"
)


@pytest.fixture
def smtp_server(settings, short_games):
    """`manage.py mail_server`, the process `manage.py serve` runs, on this test's database;
    games of two rounds there as here (short_games): a whole game is what is played by mail, and
    each round is played the same."""
    settings.MAIL_PLAY_ADDRESS = "play@localhost"
    with site_process(
        lambda port: [sys.executable, "-c", MAIL_SERVER, f"127.0.0.1:{port}"],
        MAIL_PLAY_ADDRESS=settings.MAIL_PLAY_ADDRESS,
    ) as port:
        yield SmtpServer("127.0.0.1", port)


def a_game_against_the_bot(settings):
    settings.BOT_MOVE_DELAY_SECONDS = 0
    ann = UserFactory(language="en")
    bot = services.bot_accounts(bot_kind="easy", count=1)[0]
    return ann, services.game_create_seated(players=[ann, bot], rules=Rules(), time_per_move_days=3)


def next_turn_mail(game, ann):
    """Wait for the game's end or Ann's turn, and the mail that carries her turn; that mail."""

    def ready():
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return True
        if game.to_move_seat != 0:
            return False
        return any(m.extra_headers.get("Reply-To", "").find(f"-0-{game.version}-") > 0
                   for m in mail.outbox if m.to == [ann.email])  # fmt: skip

    assert wait_for(ready, timeout=30)
    if game.status != Game.Status.ACTIVE:
        return None
    return next(m for m in reversed(mail.outbox)
                if f"-0-{game.version}-" in m.extra_headers.get("Reply-To", ""))  # fmt: skip


def first_card_of(message) -> str:
    return re.search(r"Your hand: (\S+)", message.body).group(1)


def test_a_whole_game_against_a_bot_by_answering_the_mail_over_smtp(worker, smtp_server, settings):
    ann, game = a_game_against_the_bot(settings)
    for number in itertools.count():
        assert number < MAX_TURNS, list(InboundMail.objects.values_list("outcome", "reason")[:5])
        turn = next_turn_mail(game, ann)
        if turn is None:
            break
        with smtplib.SMTP(smtp_server.hostname, smtp_server.port) as client:
            client.sendmail(
                ann.email,
                [turn.extra_headers["Reply-To"]],
                (
                    f"From: {ann.email}\r\nTo: {turn.extra_headers['Reply-To']}\r\n"
                    f"Subject: Re: {turn.subject}\r\nMessage-ID: <turn-{number}@example.org>\r\n"
                    "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
                    f"\r\nstock, discard {first_card_of(turn)}\r\n\r\nOn a day, the site wrote:\r\n"
                    f"> {turn.body.splitlines()[0]}\r\n"
                ).encode(),
            )
        assert wait_for(
            lambda n=number: InboundMail.objects.filter(key=f"id:<turn-{n}@example.org>").exists()
        )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == "completed"
    outcomes = set(InboundMail.objects.values_list("outcome", flat=True))
    assert outcomes == {"played"}
    assert Move.objects.filter(game=game, seat=0, by_bot=True).count() == 0
    assert wait_for(lambda: any("is over" in m.subject for m in mail.outbox if m.to == [ann.email]))


def test_a_whole_game_against_a_bot_by_the_mails_links(worker, settings, short_games):
    settings.MAIL_PLAY_ADDRESS = "play@localhost"
    ann, game = a_game_against_the_bot(settings)
    browser = Client()  # logged out, as a mail client opening a link is
    for number in itertools.count():
        assert number < MAX_TURNS
        turn = next_turn_mail(game, ann)
        if turn is None:
            break
        draw = re.search(r"Draw from the stock: (\S+)", turn.body).group(1)
        path = draw.split("://", 1)[1].split("/", 1)[1]
        assert browser.get(f"/{path}").status_code == 200  # the page asks; nothing moved yet
        drawn = browser.post(f"/{path}")
        assert drawn.status_code == 200
        discard = re.search(r'action="https?://[^/]+(/mail/turn/[^"]+/)"', drawn.content.decode())
        assert browser.post(discard.group(1)).status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == "completed"
    assert Move.objects.filter(game=game, seat=0, by_bot=True).count() == 0
