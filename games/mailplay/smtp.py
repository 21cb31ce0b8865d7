"""The local SMTP server of `manage.py serve` (and `manage.py mail_server`): it takes mail for the
turns' reply addresses only, and hands each to games/mailplay/inbound.py, as a provider's inbound
webhook does in production. A person on the same machine answers a turn mail with any mail
client, or `swaks --server 127.0.0.1:2525 --to play+…@localhost`."""

from __future__ import annotations

import logging
from email import policy
from email.parser import BytesParser

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP
from asgiref.sync import sync_to_async
from django.db import connections

from ..notifications.reply_tokens import reply_read
from .inbound import inbound_receive

logger = logging.getLogger(__name__)

MAX_BYTES = 1_000_000  # a reply with the move is a few kB; anything this big is not one
# What a mail over it is told by SMTP (the webhook answers 413 with the same limit).
TOO_BIG = "Message too big: a reply with a move is a few kB, 1 MB at most"


class TurnMailSMTP(SMTP):
    """aiosmtpd's server, the size limit the only limit a mail of ordinary lines meets: its line
    limit (1001 bytes) also counted a mail of bare-LF lines as one line, and answered "500 Line
    too long". A line over the limit now is a mail over it: both answer 552, saying why."""

    line_length_limit = MAX_BYTES + 1024

    async def push(self, status):
        if isinstance(status, str) and status.startswith(("552 ", "500 Line too long")):
            status = f"552 5.3.4 {TOO_BIG}"
        await super().push(status)


class TurnMailController(Controller):
    """aiosmtpd's controller, serving TurnMailHandler by TurnMailSMTP with the size limit."""

    def __init__(self, **kwargs):
        super().__init__(TurnMailHandler(), data_size_limit=MAX_BYTES, **kwargs)

    def factory(self):
        return TurnMailSMTP(self.handler, **self.SMTP_kwargs)


class TurnMailHandler:
    """aiosmtpd's handler: recipients that are no turn's address are refused at RCPT (no relay,
    no mail kept for nobody); the mail's bytes go to the one inbound path."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if reply_read(address) is None:
            return "550 5.1.1 No such turn address here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        try:
            await sync_to_async(_receive_in_thread)(raw, list(envelope.rcpt_tos))
        except Exception:  # logged; the sender's server tries again later
            logger.exception("Could not take a turn mail in")
            return "451 4.3.0 Try again later"
        return "250 OK"


def receive_bytes(raw: bytes, recipients: list[str], *, sender_failed: bool = False) -> None:
    """Parse the mail's bytes and take it in (games/mailplay/inbound.py); `sender_failed`: the
    provider found its sender's proofs (SPF, DKIM) failed."""
    message = BytesParser(policy=policy.default).parsebytes(raw)
    inbound_receive(message=message, raw=raw, recipients=recipients, sender_failed=sender_failed)


def _receive_in_thread(raw: bytes, recipients: list[str]) -> None:
    """In the server's worker thread, with a database connection of its own for each mail (mail
    comes seldom; a connection kept open between mails would be one more to go stale)."""
    try:
        receive_bytes(raw, recipients)
    finally:
        connections.close_all()
