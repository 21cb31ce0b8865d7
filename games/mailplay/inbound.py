"""A mail received at a turn's reply address, played: one path for every way mail arrives (the
local SMTP server of `manage.py serve`, a provider's inbound webhook).

Two proofs before anything is played: the address's signed token names the game, the seat and
the version the mail showed (games/notifications/reply_tokens.py), and the sender is that seat's
player by their verified address. A mail that fails either, an auto-reply or a bounce is recorded
and never answered (no table ever goes to a stranger, and no two robots answer each other for
ever). The same mail twice (providers retry) is played once: its key is unique. A turn is played
whole or not at all: a draw whose discard is refused is undone. What came of it is answered in the
player's language (games/notifications/: the kind MAIL_ANSWER)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from html import unescape

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.html import strip_tags
from django.utils.translation import gettext as _
from mailparser_reply import EmailReplyParser

from accounts.models import User
from accounts.selectors import preferences_of, verified_email

from .. import services
from ..engine import GameState
from ..engine.cards import Card
from ..errors import GameError
from ..models import Game, InboundMail
from ..notifications.outbox import mail_answer_queue
from ..notifications.reply_tokens import MARKER, TurnRef, reply_read
from ..presentation import card_info
from .commands import Command, CommandError, parse_turn

COMMAND_MAX_CHARACTERS = 500
READ_MAX_CHARACTERS = 20_000  # of the text part: a longer mail's reply is in its first lines
# Mail written by a program, never by a person: not answered (RFC 3834, and what mail servers and
# out-of-office robots write in practice).
AUTOMATIC_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress", "List-Id")
AUTOMATIC_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply|bounces?)[@+\-]", re.I)
# Where the mail answered begins, whatever the line a mail client writes above it (in the words of
# its language: "Op … schreef …:", "Dne … napsal:"): its first quoted line, its HTML blockquote.
QUOTE_START = re.compile(r"^[ \t]*>", re.M)
HTML_QUOTE_START = re.compile(r"<blockquote", re.I)
# Characters no move is written with and no text column may hold (PostgreSQL refuses NUL): a mail
# with them in its text or its Subject is refused for good and answered, and kept without them.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def kept(text: str) -> str:
    """`text` as a row keeps it: without control characters."""
    return CONTROL_CHARACTERS.sub("", text)


@dataclass(frozen=True)
class Received:
    """What an inbound mail came to."""

    row: InboundMail
    duplicate: bool = False


def mail_key(message: EmailMessage, raw: bytes) -> str:
    """A mail's identity across deliveries: its Message-ID, else a digest of its bytes."""
    message_id = kept(str(message.get("Message-ID", "") or "")).strip()
    if 3 <= len(message_id) <= 190:
        return f"id:{message_id}"
    return f"sha256:{hashlib.sha256(raw).hexdigest()}"


def is_automatic(message: EmailMessage) -> bool:
    """An auto-reply, a bounce or a list's mail: never answered."""
    auto = str(message.get("Auto-Submitted", "no") or "no").strip().lower()
    precedence = str(message.get("Precedence", "") or "").strip().lower()
    _name, sender = parseaddr(str(message.get("From", "") or ""))
    return_path = str(message.get("Return-Path", "") or "").strip()
    return (
        auto != "no"
        or precedence in ("bulk", "junk", "list", "auto_reply")
        or any(message.get(header) is not None for header in AUTOMATIC_HEADERS)
        or return_path == "<>"
        or bool(AUTOMATIC_SENDERS.match(sender))
        or message.get_content_type() == "multipart/report"
    )


def reply_text(message: EmailMessage, language: str) -> str:
    """The player's own words: the text part (or the HTML made text) without the quoted mail,
    the marker's part and the signature."""
    body = message.get_body(preferencelist=("plain", "html"))
    if body is None:
        return ""
    text = body.get_content()[:READ_MAX_CHARACTERS]
    if body.get_content_type() == "text/html":
        text = HTML_QUOTE_START.split(text, 1)[0]
        text = unescape(strip_tags(re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", text)))
    text = QUOTE_START.split(text.split(MARKER, 1)[0], 1)[0]
    reply = EmailReplyParser(languages=[language, "en"]).parse_reply(text) or ""
    return reply.strip()


def read_move(text: str) -> tuple[list[Command], str]:
    """The move in the reply, and its words: its lines from the first, up to the first line that
    is no move once a move was read (a "Sent from my phone" after it). Raises CommandError."""
    if len(text) > COMMAND_MAX_CHARACTERS:
        raise CommandError(_("Write only your move: this answer is too long to be one."))
    read: list[str] = []
    for line in (line for line in text.splitlines() if line.strip()):
        try:
            parse_turn(" ".join([*read, line]))
        except CommandError:
            if read:
                break
            raise
        read.append(line.strip())
    return parse_turn(" ".join(read)), " ".join(read)


def _seat_player(ref: TurnRef) -> tuple[Game, User] | None:
    game = Game.objects.filter(pk=ref.game_id).first()
    seat = game.seats.select_related("user").filter(index=ref.seat).first() if game else None
    return (game, seat.user) if seat and not seat.user.is_bot else None


def _ignored(row: InboundMail, reason: str) -> Received:
    row.outcome, row.reason = InboundMail.Outcome.IGNORED, reason
    row.save(update_fields=["outcome", "reason"])
    return Received(row)


def inbound_receive(
    *, message: EmailMessage, raw: bytes, recipients: list[str], sender_failed: bool = False
) -> Received:
    """Play what the mail says, if it proves itself; record it either way, once. A mail whose
    provider reports its sender's SPF or DKIM failed (`sender_failed`) is ignored: its From
    proves nothing."""
    key = mail_key(message, raw)
    try:
        with transaction.atomic():
            return _receive(message, key, recipients, sender_failed)
    except IntegrityError:  # the same mail, delivered twice at once: the other delivery plays it
        return Received(InboundMail.objects.get(key=key), duplicate=True)


def _receive(
    message: EmailMessage, key: str, recipients: list[str], sender_failed: bool
) -> Received:
    if (seen := InboundMail.objects.filter(key=key).first()) is not None:
        return Received(seen, duplicate=True)
    _name, sender = parseaddr(str(message.get("From", "") or ""))
    row = InboundMail.objects.create(
        key=key, sender=kept(sender)[:254], outcome=InboundMail.Outcome.IGNORED
    )
    if is_automatic(message):
        return _ignored(row, "automatic")
    if sender_failed:
        return _ignored(row, "sender")
    addresses = [address for _name, address in getaddresses(recipients)]
    ref = next((r for r in map(reply_read, addresses) if r is not None), None)
    found = _seat_player(ref) if ref else None
    if found is None:
        return _ignored(row, "address")
    game, user = found
    if not sender or sender.casefold() != verified_email(user).casefold():
        return _ignored(row, "sender")
    row.game, row.user, row.version = game, user, ref.version
    with translation.override(user.language or settings.LANGUAGE_CODE):  # the refusal's words
        try:
            text = reply_text(message, user.language or "en")
            row.command = kept(text)[:COMMAND_MAX_CHARACTERS]
            subject = str(message.get("Subject", "") or "")
            if CONTROL_CHARACTERS.search(text) or CONTROL_CHARACTERS.search(subject):
                raise CommandError(
                    _("This mail holds characters no move is written with: write your move again.")
                )
            if not preferences_of(user).mail_play:
                raise CommandError(_("Playing by mail is off in your settings."))
            commands, row.command = read_move(text)  # what was played, quoted in the answer
            row.outcome = turn_play(game, user, ref.version, commands)
        except (CommandError, GameError) as refused:
            row.outcome, row.reason = InboundMail.Outcome.REFUSED, kept(str(refused))[:300]
        except (LookupError, ValueError, UnicodeError):  # a malformed mail: no text to read
            row.outcome = InboundMail.Outcome.REFUSED
            row.reason = _("We could not read this mail.")
    row.save()
    mail_answer_queue(inbound=row)
    return Received(row)


def turn_play(game: Game, user: User, version: int, commands: list[Command]) -> str:
    """Apply the commands as one turn, all or nothing, if the game is still at `version`; the
    outcome (played, or drew: the discard awaited). Raises GameError. A mail's answer and a
    mail's one-click link (games/mailplay/links.py) both play through here."""
    with transaction.atomic():
        for command in commands:
            game = _apply(game, user, version, command)
            version = game.version
    drew_only = commands[-1].kind in ("stock", "take")
    return InboundMail.Outcome.DREW if drew_only else InboundMail.Outcome.PLAYED


def _apply(game: Game, user: User, version: int, command: Command) -> Game:
    if command.kind in ("stock", "take"):
        if command.kind == "take" and command.card is not None:
            _require_on_top(game, user, command.card)
        source = "stock" if command.kind == "stock" else "discard"
        return services.move_draw(game_id=game.pk, user=user, version=version, source=source)
    token = _held(game, user, command.card)
    move = services.move_discard if command.kind == "discard" else services.move_go_out
    return move(game_id=game.pk, user=user, version=version, card=token)


def _view(game: Game, user: User):
    seat = next(s for s in game.seats.all() if s.user_id == user.pk)
    return GameState.from_dict(game.state).view(seat.index)


def _require_on_top(game: Game, user: User, card: tuple[int, str]) -> None:
    top = _view(game, user).top_discard
    if top is None or (top.rank, top.suit) != card:
        named = card_info(Card(*card)).name
        raise GameError(_("The %(card)s is not on top of the discard pile.") % {"card": named})


def _held(game: Game, user: User, card: tuple[int, str]) -> str:
    """The token of the player's card of this rank and suit (a copy, with two decks)."""
    hand = _view(game, user).hand or ()
    held = next((c for c in hand if (c.rank, c.suit) == card), None)
    if held is None:
        raise GameError(_("You do not hold the %(card)s.") % {"card": card_info(Card(*card)).name})
    return held.token
