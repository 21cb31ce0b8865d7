"""A turn played by answering its mail (games/mailplay/inbound.py): the proofs, the answers, and
every way a mail can be wrong or arrive twice."""

from email.message import EmailMessage
from html import escape

import pytest

from games.engine import GameState
from games.mailplay.inbound import inbound_receive
from games.models import Game, Notification
from games.notifications.reply_tokens import TurnRef, reply_address, turn_token
from tests.factories import UserFactory, started_game
from tests.notifications.helpers import send_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(settings):
    settings.MAIL_PLAY_ADDRESS = "play@example.org"
    ann, bob = UserFactory(language="en"), UserFactory(language="en")
    game = started_game([ann, bob])
    by_seat = {s.index: s.user for s in game.seats.all()}
    return game, by_seat


def to_move(game):
    game.refresh_from_db()
    return game.to_move_seat


def hand_of(game, seat):
    game.refresh_from_db()
    return list(GameState.from_dict(game.state).view(seat).hand)


def mail(to, sender, text, *, html=None, message_id=None, headers=()):
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Re: Your turn"
    if message_id:
        message["Message-ID"] = message_id
    for name, value in headers:
        message[name] = value
    if text is not None:
        message.set_content(text)
        if html is not None:
            message.add_alternative(html, subtype="html")
    else:
        message.set_content(html, subtype="html")
    return message


def receive(message, to=None):
    """Receive the mail, then send the answers it queued, as the worker would."""
    received = inbound_receive(
        message=message, raw=message.as_bytes(), recipients=[to or message["To"]]
    )
    send_all("mail_answer")
    return received


def turn_of(game):
    game.refresh_from_db()
    return reply_address(TurnRef(game.pk, game.to_move_seat, game.version))


def answers():
    return list(Notification.objects.filter(kind="mail_answer").order_by("pk"))


def test_a_reply_with_a_whole_turn_plays_it_and_is_answered(duel, mailoutbox):
    game, by_seat = duel
    seat = to_move(game)
    player, version = by_seat[seat], game.version
    card = hand_of(game, seat)[0]
    text = f"stock, discard {card.face}\n\nOn Monday the site wrote:\n> ## Your move goes above"
    got = receive(mail(turn_of(game), player.email, text, message_id="<m1@example.org>"))
    assert got.row.outcome == "played" and not got.duplicate
    game.refresh_from_db()
    assert game.version == version + 2 and game.to_move_seat != seat
    (answer,) = answers()
    assert answer.user == player and answer.inbound == got.row
    sent = next(m for m in mailoutbox if "is played" in m.subject)
    assert sent.to == [player.email] and sent.extra_headers["In-Reply-To"] == "<m1@example.org>"


def test_the_same_mail_twice_plays_once_and_is_answered_once(duel):
    game, by_seat = duel
    seat = to_move(game)
    card = hand_of(game, seat)[0]
    message = mail(turn_of(game), by_seat[seat].email, f"stock, discard {card.face}",
                   message_id="<again@example.org>")  # fmt: skip
    first = receive(message)
    version = Game.objects.get(pk=game.pk).version
    second = receive(message)
    assert second.duplicate and second.row == first.row
    assert Game.objects.get(pk=game.pk).version == version and len(answers()) == 1


def test_a_draw_alone_is_answered_with_the_card_and_a_new_address_for_the_discard(duel, mailoutbox):
    game, by_seat = duel
    seat = to_move(game)
    player = by_seat[seat]
    got = receive(mail(turn_of(game), player.email, "stock"))
    assert got.row.outcome == "drew"
    drawn = hand_of(game, seat)[-1]
    sent = next(m for m in mailoutbox if "now your discard" in m.subject)
    new_address = turn_of(game)
    assert sent.extra_headers["Reply-To"] == new_address
    assert "You drew the" in sent.body
    got = receive(mail(new_address, player.email, f"discard {drawn.face}"))
    assert got.row.outcome == "played" and to_move(game) != seat


def test_an_old_mail_after_the_game_moved_on_is_refused_and_changes_nothing(duel):
    game, by_seat = duel
    seat = to_move(game)
    player, old = by_seat[seat], turn_of(game)
    receive(mail(old, player.email, "stock"))
    version = Game.objects.get(pk=game.pk).version
    card = hand_of(game, seat)[0]
    got = receive(mail(old, player.email, f"stock, discard {card.face}"))
    assert got.row.outcome == "refused" and "moved on" in got.row.reason
    assert Game.objects.get(pk=game.pk).version == version
    assert answers()[-1].inbound == got.row


def test_a_discard_refused_undoes_the_draw(duel):
    game, by_seat = duel
    seat = to_move(game)
    version = game.version
    held = {(c.rank, c.suit) for c in hand_of(game, seat)}
    absent = next(f"{r}{s}" for r in range(2, 11) for s in "HSDC" if (r, s) not in held)
    got = receive(mail(turn_of(game), by_seat[seat].email, f"stock, discard {absent}"))
    assert got.row.outcome == "refused" and "do not hold" in got.row.reason
    assert Game.objects.get(pk=game.pk).version == version


@pytest.mark.parametrize(
    "case", ["stranger", "other_seat", "forged", "altered", "other_game", "automatic", "bounce"]
)
def test_mail_that_does_not_prove_itself_is_ignored_and_never_answered(duel, case, mailoutbox):
    game, by_seat = duel
    seat = to_move(game)
    player, other = by_seat[seat], by_seat[1 - seat]
    address, sender, headers = turn_of(game), player.email, []
    local, domain = address.split("@")
    if case == "stranger":
        sender = UserFactory().email
    elif case == "other_seat":  # the other player answers with this seat's address
        sender = other.email
    elif case == "forged":
        address = f"play+{game.pk}-{seat}-{game.version}-{'0' * 24}@{domain}"
    elif case == "altered":
        address = local.replace(f"{game.pk}-{seat}-", f"{game.pk}-{1 - seat}-") + "@" + domain
    elif case == "other_game":
        address = reply_address(TurnRef(started_game([UserFactory(), player]).pk, 0, 0))
    elif case == "automatic":
        headers = [("Auto-Submitted", "auto-replied")]
    elif case == "bounce":
        sender = "MAILER-DAEMON@example.org"
    version = game.version
    got = receive(mail(address, sender, "stock, discard 7h", headers=headers))
    assert got.row.outcome == "ignored"
    assert Game.objects.get(pk=game.pk).version == version
    assert not answers() and not mailoutbox


def test_html_only_and_attachments_are_read_for_the_text(duel):
    game, by_seat = duel
    seat = to_move(game)
    message = mail(
        turn_of(game), by_seat[seat].email, None, html="<p>stock</p><blockquote>## x</blockquote>"
    )
    message.add_attachment(b"\x00" * 1000, maintype="application", subtype="octet-stream")
    assert receive(message).row.outcome == "drew"


@pytest.mark.parametrize(
    "body", ["x" * 100_000, "", "\udcff broken", "stock, discard " + "7h " * 300]
)
def test_huge_empty_or_malformed_mail_is_refused_with_a_reason(duel, body):
    game, by_seat = duel
    seat = to_move(game)
    version = game.version
    message = EmailMessage()
    message["From"] = by_seat[seat].email
    message["To"] = turn_of(game)
    message.set_payload(body.encode("utf-8", "surrogateescape"), charset="utf-8")
    got = receive(message)
    assert got.row.outcome == "refused" and got.row.reason
    assert Game.objects.get(pk=game.pk).version == version


def test_a_player_who_turned_mail_play_off_is_told_so(duel):
    from accounts.services import preferences_update

    game, by_seat = duel
    seat = to_move(game)
    preferences_update(user=by_seat[seat], mail_play=False)
    got = receive(mail(turn_of(game), by_seat[seat].email, "stock"))
    assert got.row.outcome == "refused" and "off in your settings" in got.row.reason


def test_the_refusal_is_in_the_players_language(duel):
    game, by_seat = duel
    game.seats.filter(index=game.to_move_seat).update()
    seat = to_move(game)
    by_seat[seat].language = "nl"
    by_seat[seat].save(update_fields=["language"])
    got = receive(mail(turn_of(game), by_seat[seat].email, "hallo"))
    assert got.row.reason == "We konden “hallo” niet lezen."


def test_a_link_token_is_no_reply_address(duel):
    game, by_seat = duel
    seat = to_move(game)
    token = turn_token(TurnRef(game.pk, seat, game.version, "stock"))
    got = receive(mail(f"play+{token}@example.org", by_seat[seat].email, "stock"))
    assert got.row.outcome == "ignored"


def test_the_turn_mail_carries_its_reply_address_unless_mail_play_is_off(duel, mailoutbox):
    from accounts.services import preferences_update

    game, by_seat = duel
    seat = to_move(game)
    player = by_seat[seat]
    send_all("your_turn")
    (turn_mail,) = [m for m in mailoutbox if m.to == [player.email]]
    assert turn_mail.extra_headers["Reply-To"] == turn_of(game)
    assert "Play by answering this mail" in turn_mail.body and "## " in turn_mail.body
    preferences_update(user=player, mail_play=False)
    Notification.objects.filter(kind="your_turn").update(status="pending", sent_at=None)
    send_all("your_turn")
    assert "Reply-To" not in mailoutbox[-1].extra_headers
    assert "Play by answering" not in mailoutbox[-1].body


def test_the_answer_shows_in_the_notices_too(duel, client):
    game, by_seat = duel
    seat = to_move(game)
    receive(mail(turn_of(game), by_seat[seat].email, "hello"))
    client.force_login(by_seat[seat])
    page = client.get("/notices/").content.decode()
    assert f"Game #{game.pk}: your mail was not played (we answered why)." in page


def test_the_answer_to_a_played_move_says_no_move_of_theirs_is_due(settings, mailoutbox):
    """Once played, the turn is the next player's: the answer names no deadline as theirs (the
    answer to a draw, whose discard is still theirs, does)."""
    settings.MAIL_PLAY_ADDRESS = "play@example.org"
    ann, bob = UserFactory(language="en"), UserFactory(language="en")
    game = started_game([ann, bob], time_per_move_days=3)
    by_seat = {s.index: s.user for s in game.seats.all()}
    seat = to_move(game)
    player = by_seat[seat]
    receive(mail(turn_of(game), player.email, "stock"))
    drew = next(m for m in mailoutbox if "now your discard" in m.subject)
    assert "Your move is due by" in drew.body
    card = hand_of(game, seat)[0]
    receive(mail(turn_of(game), player.email, f"discard {card.face}"))
    played = next(m for m in mailoutbox if "is played" in m.subject)
    assert "Your move is due by" not in played.body
    assert "Your move is due by" not in played.alternatives[0].content


def test_the_dutch_answer_calls_a_game_what_the_turn_mail_does(duel, mailoutbox):
    """The word "partij", as in "Jouw beurt in partij #…" and on the site (it said "spel")."""
    game, by_seat = duel
    seat = to_move(game)
    by_seat[seat].language = "nl"
    by_seat[seat].save(update_fields=["language"])
    receive(mail(turn_of(game), by_seat[seat].email, "hallo"))
    answer = mailoutbox[-1]
    assert answer.subject == f"Partij #{game.pk}: je mail is niet gespeeld"
    assert f"Je mail over partij #{game.pk} is niet gespeeld" in answer.body


def test_the_answer_quotes_the_move_read_not_the_lines_after_it(duel, mailoutbox):
    game, by_seat = duel
    seat = to_move(game)
    card = hand_of(game, seat)[0]
    text = f"stock, discard {card.face}\n\nSent from my phone"
    got = receive(mail(turn_of(game), by_seat[seat].email, text))
    assert got.row.outcome == "played"
    played = next(m for m in mailoutbox if "is played" in m.subject)
    assert f"is played: “stock, discard {card.face}”." in played.body
    assert "Sent from my phone" not in played.body


def test_after_a_draw_the_mail_asks_for_the_discard_once_and_no_longer_for_a_draw(duel, mailoutbox):
    game, by_seat = duel
    seat = to_move(game)
    receive(mail(turn_of(game), by_seat[seat].email, "stock"))
    drew = next(m for m in mailoutbox if "now your discard" in m.subject)
    for body in (drew.body, drew.alternatives[0].content):
        assert body.count("Now answer with your discard") == 1
        assert "“stock, discard 7h”" not in body and "You drew the" in body


# What Gmail writes above the quoted mail in Dutch and Czech (mail-parser-reply knows other forms).
QUOTE_HEADERS = [
    "Op vr 4 dec 2026 om 16:58 schreef Three Thirteen <games@example.org>:",
    "Dne pá 4. 12. 2026 v 16:58 odesílatel Three Thirteen <games@example.org> napsal:",
]


def quoted_turn_mail(game, seat, mailoutbox):
    send_all("your_turn")
    turn_mail = next(m for m in mailoutbox if m.extra_headers.get("Reply-To") == turn_of(game))
    return turn_mail, "\n".join(f"> {line}" for line in turn_mail.body.splitlines())


@pytest.mark.parametrize("header", QUOTE_HEADERS)
def test_a_reply_quoting_the_whole_turn_mail_under_any_header_is_read(duel, mailoutbox, header):
    """The quote ('>' lines) is no part of the move, whatever the line above it says: it made
    the answer too long to read."""
    game, by_seat = duel
    seat = to_move(game)
    _turn_mail, quoted = quoted_turn_mail(game, seat, mailoutbox)
    text = f"stock\n\n{header}\n\n{quoted}\n"
    got = receive(mail(turn_of(game), by_seat[seat].email, text))
    assert got.row.outcome == "drew", got.row.reason


@pytest.mark.parametrize("header", QUOTE_HEADERS)
def test_an_html_only_reply_quoting_the_turn_mail_is_read(duel, mailoutbox, header):
    game, by_seat = duel
    seat = to_move(game)
    turn_mail, _quoted = quoted_turn_mail(game, seat, mailoutbox)
    html = (
        f'<div dir="ltr">stock</div><br><div class="gmail_quote"><div class="gmail_attr">'
        f"{escape(header)}<br></div><blockquote>{turn_mail.alternatives[0].content}</blockquote>"
    )
    got = receive(mail(turn_of(game), by_seat[seat].email, None, html=html))
    assert got.row.outcome == "drew", got.row.reason


@pytest.mark.parametrize(
    "database", ["default", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def test_a_nul_byte_is_refused_for_good_answered_and_kept_without_it(duel, mailoutbox, database):
    """PostgreSQL cannot hold a NUL in a text column: the mail's row failed, SMTP answered 451
    and the webhook 500, and the sender's server tried again for days. (The `postgres` case runs
    where the suite has PostgreSQL, where the row itself was refused.)"""
    game, by_seat = duel
    seat, version = to_move(game), game.version
    got = receive(mail(turn_of(game), by_seat[seat].email, "st\x00ock, discard 7h"))
    row = got.row
    row.refresh_from_db()
    assert row.outcome == "refused" and "characters no move is written with" in row.reason
    assert "\x00" not in row.command and row.command.startswith("stock")
    assert Game.objects.get(pk=game.pk).version == version
    assert len(mailoutbox) == 1 and "not played" in mailoutbox[0].body


def test_a_nul_byte_in_the_subject_is_refused_for_good_as_in_the_body(duel, mailoutbox):
    """The body's NUL was refused, the Subject's played."""
    from email import policy
    from email.parser import BytesParser

    game, by_seat = duel
    seat, version = to_move(game), game.version
    card = hand_of(game, seat)[0]
    raw = (
        f"From: {by_seat[seat].email}\r\nTo: {turn_of(game)}\r\nSubject: Re: your\x00 turn\r\n"
        f"Message-ID: <nul-subject@example.org>\r\n\r\nstock, discard {card.face}\r\n"
    ).encode()
    message = BytesParser(policy=policy.default).parsebytes(raw)
    got = inbound_receive(message=message, raw=raw, recipients=[turn_of(game)])
    send_all("mail_answer")
    row = got.row
    row.refresh_from_db()
    assert row.outcome == "refused" and "characters no move is written with" in row.reason
    assert Game.objects.get(pk=game.pk).version == version
    assert len(mailoutbox) == 1 and "not played" in mailoutbox[0].body
    assert "\x00" not in mailoutbox[0].subject
