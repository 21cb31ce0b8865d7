"""The local SMTP server of `manage.py serve` (and `manage.py mail_server`): it takes mail for the
turns' reply addresses only, and hands each to games/mailplay/inbound.py, as a provider's inbound
webhook does in production. A person on the same machine answers a turn mail with any mail
client, or `swaks --server 127.0.0.1:2525 --to play+…@localhost`."""

from __future__ import annotations

import logging
from email import policy
from email.parser import BytesParser

from asgiref.sync import sync_to_async
from django.db import connections

from ..notifications.reply_tokens import reply_read
from .inbound import inbound_receive

logger = logging.getLogger(__name__)

MAX_BYTES = 1_000_000  # a reply with the move is a few kB; anything this big is not one


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
