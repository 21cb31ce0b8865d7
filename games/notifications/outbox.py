"""The outbox: each mail or push is recorded as a Notification row, one per channel, in the
transaction that causes it (once: its unique constraint), sent after the commit by
games.tasks.send_notification, marked sent, skipped or failed, postponed while it waits, and
queued again by the sweep when its task was lost. Mail and push differ only in how a row is
delivered (DELIVERERS)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from accounts.models import Preferences, User
from accounts.selectors import has_verified_email

from ..models import Game, InboundMail, Notification, Seat
from ..oncommit import enqueue_now, enqueue_on_commit
from ..selectors.lists import games_waiting_on
from ..selectors.pauses import on_vacation
from .compose import compose
from .policy import channels_of, no_longer_wanted, unwanted_reason, wait_while_watching
from .push import push_send

sent_log = logging.getLogger("threethirteen.mail")  # with the request id that caused it

# A pending mail whose task is this much overdue was lost (a worker killed holding it, a broker
# outage): the sweep (every 30 s) queues it again. `Notification.enqueued_at` is when its task is
# due; a wait (presence, a retry's backoff) moves it on.
REQUEUE_AFTER = timedelta(minutes=1)


def notification_queue(
    *,
    user: User,
    kind: str,
    game: Game | None = None,
    turn: int = 0,
    threshold: int = 0,
    day=None,
    player: User | None = None,
    inbound: InboundMail | None = None,
    league_entry=None,
    moderation=None,
    countdown: float = 0,
) -> list[Notification]:
    """Record a notice on each channel its kind goes by, once each, and send it after the
    commit. The mail row is the record of what happened (the notice centre lists it, the sweeps
    see it dealt with): recorded even when the player wants no such mail, as skipped with the
    reason. A push row only when the player wants it. Returns the rows recorded now (none on a
    channel where it was recorded before)."""
    rows = []
    for channel in channels_of(kind):
        reason = unwanted_reason(user, kind, channel)
        if reason and channel == Notification.Channel.PUSH:
            continue
        row, created = Notification.objects.get_or_create(
            user=user,
            kind=kind,
            channel=channel,
            game=game,
            turn=turn,
            threshold=threshold,
            day=day,
            player=player,
            inbound=inbound,
            league_entry=league_entry,
            moderation=moderation,
            defaults={
                "status": Notification.Status.SKIPPED if reason else Notification.Status.PENDING,
                "reason": reason,
                "enqueued_at": timezone.now() + timedelta(seconds=countdown),
            },
        )
        if not created:
            continue
        rows.append(row)
        if row.status == Notification.Status.PENDING:
            send_after_commit(row.pk, countdown)
    return rows


def notification_record_skipped(
    *, user: User, kind: str, game: Game, turn: int, threshold: int, reason: str
) -> None:
    Notification.objects.get_or_create(
        user=user,
        kind=kind,
        game=game,
        turn=turn,
        threshold=threshold,
        defaults={"status": Notification.Status.SKIPPED, "reason": reason},
    )


def send_after_commit(notification_id: int, countdown: float = 0) -> None:
    enqueue_on_commit("games.tasks.send_notification", (notification_id,), countdown=countdown)


def your_turn_queue(*, game: Game, seat: Seat) -> None:
    """A person's turn has begun (called in the move's transaction)."""
    if seat.user.is_bot:
        return
    notification_queue(
        user=seat.user,
        kind=Notification.Kind.YOUR_TURN,
        game=game,
        turn=game.turn_version,
        countdown=settings.YOUR_TURN_MAIL_DELAY_SECONDS,
    )


def game_over_queue(*, game: Game, ended_by: User | None = None) -> None:
    """The game has ended (called in its transaction): a summary to every person at it, but
    one who has deleted their account, and but `ended_by`, whose own request (a resignation)
    ended it: the page answering it shows them the end, so their row is only the record."""
    for seat in game.seats.select_related("user"):
        if seat.user.is_bot or seat.departed:
            continue
        if ended_by is not None and seat.user_id == ended_by.pk:
            notification_record_skipped(
                user=seat.user,
                kind=Notification.Kind.GAME_OVER,
                game=game,
                turn=0,
                threshold=0,
                reason="own_action",
            )
        else:
            notification_queue(user=seat.user, kind=Notification.Kind.GAME_OVER, game=game)


def seat_news_queue(*, game: Game, player: User, kind: str) -> None:
    """To the host (in the transaction that causes it): `player` took a seat (JOINED) or declined
    their invitation (DECLINED). Once per player and game; no mail while the host watches the
    waiting room (policy.no_longer_wanted)."""
    if player.pk != game.created_by_id:
        notification_queue(user=game.created_by, kind=kind, game=game, player=player)


def game_started_queue(*, game: Game, started_by: User | None) -> None:
    """The game has started (in its transaction): the people seated hear it, but `started_by`
    (whose request started it sees the table; None when the site started it) and the player to
    move (told it is their turn)."""
    starter_id = started_by.pk if started_by is not None else None
    for seat in game.seats.select_related("user"):
        if seat.user.is_bot or seat.user_id == starter_id or seat.index == game.to_move_seat:
            continue
        notification_queue(user=seat.user, kind=Notification.Kind.STARTED, game=game)


def mail_answer_queue(*, inbound: InboundMail) -> None:
    """Answer a mail received at a turn's reply address, in its transaction: what was played, or
    why not (games/mailplay/inbound.py). Once per mail; only ever to the seat's player."""
    notification_queue(
        user=inbound.user, kind=Notification.Kind.MAIL_ANSWER, game=inbound.game, inbound=inbound
    )


def timed_out_queue(*, game: Game, seat: Seat) -> None:
    """A person's time ran out and a bot plays for them (called in the timeout's transaction):
    once per turn."""
    notification_queue(
        user=seat.user, kind=Notification.Kind.TIMED_OUT, game=game, turn=game.turn_version
    )


def dropped_queue(*, game: Game, seat: Seat) -> None:
    """A person was dropped after too many timeouts (called in the drop's transaction): once per
    game."""
    notification_queue(user=seat.user, kind=Notification.Kind.DROPPED, game=game)


def digests_queue(*, now: datetime | None = None) -> int:
    """From DIGEST_HOUR (UTC) on, one digest a day to each player who chose it and has a game
    waiting on them; a later run the same day finds them sent. Returns how many were queued."""
    now = now or timezone.now()
    if now.astimezone(UTC).hour < settings.DIGEST_HOUR:
        return 0
    today = now.astimezone(UTC).date()
    users = (
        User.objects.filter(
            preferences__turn_mail=Preferences.TurnMail.DIGEST, is_bot=False, is_active=True
        )
        .filter(has_verified_email())
        .filter(Exists(games_waiting_on(OuterRef("pk"))))
    )
    sent_today = Notification.objects.filter(
        user=OuterRef("pk"), kind=Notification.Kind.DIGEST, day=today
    )
    users = users.exclude(Exists(sent_today))
    queued = 0
    for user in users:
        if on_vacation(user.pk, now):
            continue
        with transaction.atomic():
            rows = notification_queue(user=user, kind=Notification.Kind.DIGEST, day=today)
            queued += any(row.status == Notification.Status.PENDING for row in rows)
    return queued


def notifications_requeue_stale(*, now: datetime) -> int:
    """Pending mail whose task never ran (lost on a broker outage): queue it again."""
    stale = Notification.objects.filter(
        status=Notification.Status.PENDING, enqueued_at__lte=now - REQUEUE_AFTER
    )
    ids = list(stale.values_list("pk", flat=True)[:500])
    if ids:
        Notification.objects.filter(pk__in=ids).update(enqueued_at=now)
        for notification_id in ids:
            enqueue_now("games.tasks.send_notification", (notification_id,))
    return len(ids)


def mail_send(row: Notification) -> str:
    compose(row).send()
    return ""


# How a recorded row is delivered: '' once it went out, else why it could not (skipped).
DELIVERERS = {Notification.Channel.MAIL: mail_send, Notification.Channel.PUSH: push_send}


def notification_send(*, notification_id: int, now: datetime | None = None) -> str:
    """Send one recorded mail or push unless it is done or no longer wanted; returns what
    happened. A mail server's or push service's error propagates (the row stays pending) so that
    the task retries."""
    now = now or timezone.now()
    with transaction.atomic():
        row = Notification.objects.select_for_update().filter(pk=notification_id).first()
        if row is None or row.status != Notification.Status.PENDING:
            return "done"
        reason = unwanted_reason(row.user, row.kind, row.channel) or no_longer_wanted(row, now)
        if reason:
            row.status, row.reason = Notification.Status.SKIPPED, reason
            row.save(update_fields=["status", "reason"])
            return reason
        wait = wait_while_watching(row, now)
        if wait is not None:  # still pending: the same row is checked again later
            row.reason, row.enqueued_at = "watching", now + timedelta(seconds=wait)
            row.save(update_fields=["reason", "enqueued_at"])
            send_after_commit(row.pk, wait)
            return "watching"
        reason = DELIVERERS[row.channel](row)
        if reason:  # nowhere to deliver it after all (every device gone)
            row.status, row.reason = Notification.Status.SKIPPED, reason
            row.save(update_fields=["status", "reason"])
            return reason
        row.status, row.sent_at, row.reason = Notification.Status.SENT, timezone.now(), ""
        row.save(update_fields=["status", "sent_at", "reason"])
        sent_log.info(
            "%s %s sent to user %s", row.kind, row.channel, row.user_id,
            extra={"notification": row.pk, "kind": row.kind, "channel": row.channel,
                   "to_user": row.user_id, "game": row.game_id},
        )  # fmt: skip
        return "sent"


def notification_postpone(*, notification_id: int, seconds: float) -> None:
    """Its task will run again in `seconds` (a retry's backoff): the sweep leaves it until then."""
    due = timezone.now() + timedelta(seconds=seconds)
    Notification.objects.filter(pk=notification_id, status=Notification.Status.PENDING).update(
        enqueued_at=due
    )


def notification_mark_failed(*, notification_id: int, reason: str) -> None:
    Notification.objects.filter(pk=notification_id, status=Notification.Status.PENDING).update(
        status=Notification.Status.FAILED, reason=reason[:40]
    )
