"""Replies to turn mails from a mail provider's inbound webhook (django-anymail: Mailgun, Postmark,
SendGrid, Amazon SES, …): anymail checks the provider's signature and the webhook's basic-auth
secret, normalises the mail, and sends its `inbound` signal; this hands the mail's bytes to the one
inbound path, as the local SMTP server does (games/mailplay/smtp.py)."""

from __future__ import annotations

from email.utils import getaddresses

from anymail.signals import inbound

from .smtp import receive_bytes


def inbound_received(sender, event, esp_name, **kwargs) -> None:
    message = event.message
    if message is None:
        return
    recipients = [message.envelope_recipient] if message.envelope_recipient else []
    if not recipients:
        headers = [str(value) for name in ("To", "Cc") for value in message.get_all(name, [])]
        recipients = [address for _name, address in getaddresses(headers)]
    receive_bytes(message.as_bytes(), recipients)


def connect() -> None:
    inbound.connect(inbound_received, dispatch_uid="games.mailplay.webhook")
