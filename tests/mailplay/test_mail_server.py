"""The local SMTP server that takes replies to turn mails (games/mailplay/smtp.py), spoken to by a
real SMTP client."""

import logging
import smtplib
from email.message import EmailMessage

import pytest

from games.engine import GameState
from games.mailplay.smtp import MAX_BYTES, TurnMailController
from games.models import Game, InboundMail
from games.notifications.reply_tokens import TurnRef, reply_address
from tests.factories import UserFactory, started_game
from tests.workers import free_port

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def smtp_server():
    controller = TurnMailController(hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller
    controller.stop()


def test_a_reply_sent_by_smtp_plays_the_turn(smtp_server, settings):
    settings.MAIL_PLAY_ADDRESS = "play@localhost"
    game = started_game([UserFactory(), UserFactory()])
    seat = game.seats.select_related("user").get(index=game.to_move_seat)
    card = GameState.from_dict(game.state).view(seat.index).hand[0]
    message = EmailMessage()
    message["From"] = seat.user.email
    message["To"] = reply_address(TurnRef(game.pk, seat.index, game.version))
    message["Message-ID"] = "<smtp-1@example.org>"
    message.set_content(f"stock, discard {card.face}")
    with smtplib.SMTP(smtp_server.hostname, smtp_server.port) as client:
        client.send_message(message)
    row = InboundMail.objects.get()
    assert row.outcome == "played", row.reason
    assert Game.objects.get(pk=game.pk).version == game.version + 2


def test_it_takes_mail_for_turn_addresses_only_and_refuses_huge_mail(smtp_server, settings):
    settings.MAIL_PLAY_ADDRESS = "play@localhost"
    game = started_game([UserFactory(), UserFactory()])
    with smtplib.SMTP(smtp_server.hostname, smtp_server.port) as client:
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            client.sendmail("a@example.org", ["someone@elsewhere.org"], b"Subject: x\r\n\r\nhi")
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            client.sendmail("a@example.org", ["play+1-0-0-" + "0" * 24 + "@localhost"], b"\r\n")
        address = reply_address(TurnRef(game.pk, 0, game.version))
        with pytest.raises(smtplib.SMTPException):
            client.sendmail("a@example.org", [address], b"Subject: x\r\n\r\n" + b"x" * MAX_BYTES)
    assert not InboundMail.objects.exists()


def test_the_console_is_not_told_of_each_smtp_session(smtp_server, caplog):
    """aiosmtpd logs every command of every session at INFO, senders' addresses included: the
    quiet console of `manage.py serve` hears only its warnings."""
    caplog.set_level(logging.INFO)
    with smtplib.SMTP(smtp_server.hostname, smtp_server.port) as client:
        client.noop()
    chatter = [r for r in caplog.records if r.name.startswith("mail.log") and r.levelno < 30]
    assert chatter == []


@pytest.mark.parametrize("size", [900_000, 1_500_000])
def test_mail_of_ordinary_lines_is_taken_up_to_1_mb_and_refused_over_it_with_552(
    smtp_server, settings, size
):
    settings.MAIL_PLAY_ADDRESS = "play@localhost"
    game = started_game([UserFactory(), UserFactory()])
    address = reply_address(TurnRef(game.pk, 0, game.version))
    body = b"Subject: x\r\n\r\n" + (b"x" * 71 + b"\r\n") * (size // 73)
    with smtplib.SMTP(smtp_server.hostname, smtp_server.port) as client:
        if size < MAX_BYTES:
            client.sendmail("a@example.org", [address], body)  # taken (and ignored: not the seat's)
            assert InboundMail.objects.get().outcome == "ignored"
        else:
            with pytest.raises(smtplib.SMTPException) as refused:
                client.sendmail("a@example.org", [address], body)
            assert refused.value.smtp_code == 552 and b"1 MB" in refused.value.smtp_error


@pytest.mark.parametrize("size", [900_000, 1_500_000])
def test_a_mail_of_bare_lf_lines_is_taken_up_to_1_mb_too(smtp_server, settings, size):
    """Lines ending in a bare LF (as some clients send them) were read as one line over
    aiosmtpd's 1001-byte limit: "500 Line too long", even at 0.9 MB."""
    settings.MAIL_PLAY_ADDRESS = "play@localhost"
    game = started_game([UserFactory(), UserFactory()])
    address = reply_address(TurnRef(game.pk, 0, game.version))
    body = b"Subject: x\n\n" + (b"x" * 71 + b"\n") * (size // 72)
    with smtplib.SMTP(smtp_server.hostname, smtp_server.port) as client:
        client.ehlo()
        client.mail("a@example.org")  # no SIZE given, as many clients send: judged after DATA
        client.rcpt(address)
        code, reason = client.data(body)
    if size < MAX_BYTES:
        assert code == 250 and InboundMail.objects.get().outcome == "ignored"
    else:
        assert code == 552 and b"1 MB" in reason and not InboundMail.objects.exists()
