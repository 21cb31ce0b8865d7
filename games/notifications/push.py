"""Delivering a push: a short notice (the mail's subject, a line, the link to open) encrypted for
each device the player turned notices on in, signed with the site's VAPID key, and posted to
that device's push service (pywebpush). A device the push service says is gone (404, 410) is
forgotten. The row is sent when at least one device took it; a push service that fails for now
raises PushServiceBusy, and the task tries again later."""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.utils.translation import gettext as _
from pywebpush import WebPushException, webpush

from accounts.models import PushSubscription
from accounts.services import push_subscription_delete

from ..models import Notification
from .compose import in_recipients_terms, notice_context
from .policy import SEAT_NEWS_KINDS, PushServiceBusy

logger = logging.getLogger(__name__)

# The push service's answers meaning 'this subscription no longer exists' (RFC 8030 §7.3).
GONE = (404, 410)
PUSH_TIMEOUT_SECONDS = 10


def push_payload(row: Notification) -> dict:
    """What the service worker shows (templates/webapp/sw.js): no card of any hand, only the
    subject."""
    with in_recipients_terms(row):
        context = notice_context(row)
        if row.kind == Notification.Kind.INVITATION:
            body, url = _("Open the invitation to take a seat."), context["join_url"]
        elif row.kind in SEAT_NEWS_KINDS:
            body, url = context["line"], context["play_url"]
        else:
            body = _("Round %(round)d of %(rounds)d: %(wild)s are wild.") % context
            url = context["play_url"]
    return {"title": context["subject"], "body": body, "url": url, "tag": f"game-{row.game_id}"}


def push_to(device: PushSubscription, data: str) -> None:
    webpush(
        subscription_info={
            "endpoint": device.endpoint,
            "keys": {"p256dh": device.p256dh, "auth": device.auth},
        },
        data=data,
        vapid_private_key=settings.VAPID_PRIVATE_KEY,
        vapid_claims={"sub": settings.VAPID_SUBJECT},
        ttl=settings.PUSH_TTL_SECONDS,
        timeout=PUSH_TIMEOUT_SECONDS,
    )


def push_send(row: Notification) -> str:
    """Push `row` to each of its player's devices: '' when one took it, else why none did. A
    device's transient failure (5xx, 429, no answer) when no other took it raises
    PushServiceBusy; its connection errors (OSError) propagate as they are."""
    data = json.dumps(push_payload(row))
    delivered, busy, refused = False, None, False
    for device in PushSubscription.objects.filter(user_id=row.user_id).order_by("pk"):
        try:
            push_to(device, data)
            delivered = True
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in GONE:
                push_subscription_delete(endpoint=device.endpoint)
            elif status is None or status == 429 or status >= 500:
                busy = error
            else:  # a request this device's service will never take (a key it no longer knows)
                logger.warning("Push %s refused by device %s: %s", row.pk, device.pk, error)
                refused = True
        except OSError as error:
            busy = error
    if delivered:
        return ""
    if busy is not None:
        raise PushServiceBusy(str(busy)) from busy
    return "refused" if refused else "no_device"
