"""Email: recording, composing and sending every mail the site sends, presence at the table, and
the one-click unsubscribe.

Each mail is first recorded as a Notification row (an outbox) in the transaction that causes it,
then sent by a task (games.tasks.send_notification) with retries and backoff, never from a
request. The row's unique constraint makes each mail happen once; the send re-checks under the
row's lock that the mail is still wanted (the preference, still that turn, not on vacation). A
'your turn' mail to a player looking at that table waits, still pending, until they leave; it
goes out then if the turn is still theirs. A send whose task was lost is queued again by the
sweep. A worker killed after the mail left but before its row was marked sent may send it twice:
mail is at least once, never lost.
"""

from __future__ import annotations

import functools
import logging
import random
import smtplib
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Preferences, User
from accounts.selectors import preferences_of
from accounts.services import preferences_update
from accounts.validators import one_line

from . import selectors
from .engine import GameState, Rules, simulate_game
from .engine.state import redact_record
from .models import Game, Invitation, Move, Notification, Seat
from .oncommit import enqueue_on_commit
from .services import GameError

logger = logging.getLogger(__name__)

Kind = Notification.Kind
Status = Notification.Status
# Errors worth trying again later: the mail server is down, slow or refusing for now.
MAIL_ERRORS = (smtplib.SMTPException, OSError)
# Which preference each kind of mail answers to (and its unsubscribe link turns off).
TOPIC_OF_KIND = {
    Kind.YOUR_TURN: "turn_mail",
    Kind.DIGEST: "turn_mail",
    Kind.REMINDER: "reminders",
    Kind.INVITATION: "invitations",
    Kind.GAME_OVER: "game_over",
}
UNSUBSCRIBE_SALT = "games.notifications.unsubscribe"
# Presence is written at most this often per seat (the table polls every 5 s while visible).
PRESENCE_TOUCH_SECONDS = 10
# A pending mail whose task is this much overdue was lost (a worker killed holding it, a broker
# outage): the sweep (every 30 s) queues it again. `Notification.enqueued_at` is when its task is
# due; a wait (presence, a retry's backoff) moves it on.
REQUEUE_AFTER = timedelta(minutes=1)
# A 'your turn' mail to a player at the table waits until they leave; while they stay, it is
# checked again at most this far apart (a task every few minutes, never a loop).
WATCHING_RECHECK_MAX = timedelta(minutes=5)


def topic_label(topic: str) -> str:
    return {
        "turn_mail": _("emails about your turns"),
        "reminders": _("deadline reminders"),
        "invitations": _("invitations to games"),
        "game_over": _("game-over summaries"),
    }[topic]


# -- presence --------------------------------------------------------------------------------


def seat_record_presence(*, seat: Seat, now: datetime | None = None) -> None:
    """The player has this table open and visible (throttled: one write per 10 s at most)."""
    now = now or timezone.now()
    if seat.last_seen_at and seat.last_seen_at > now - timedelta(seconds=PRESENCE_TOUCH_SECONDS):
        return
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=now)
    seat.last_seen_at = now


def is_watching(seat: Seat, now: datetime) -> bool:
    window = timedelta(seconds=settings.PRESENCE_SECONDS)
    return seat.last_seen_at is not None and seat.last_seen_at >= now - window


# -- recording -------------------------------------------------------------------------------


def wants(preferences: Preferences, kind: str) -> bool:
    if kind == Kind.YOUR_TURN:
        return preferences.turn_mail == Preferences.TurnMail.EACH
    if kind == Kind.DIGEST:
        return preferences.turn_mail == Preferences.TurnMail.DIGEST
    return bool(getattr(preferences, TOPIC_OF_KIND[kind]))


def _unwanted(user: User, kind: str) -> str:
    """Why this player gets no mail of this kind ('' if they do)."""
    if user.is_bot or not user.is_active or not user.email:
        return "no_address"
    if not wants(preferences_of(user), kind):
        return "preference"
    return ""


def notification_queue(
    *,
    user: User,
    kind: str,
    game: Game | None = None,
    turn: int = 0,
    threshold: int = 0,
    day=None,
    countdown: float = 0,
    record_unwanted: bool = False,
) -> Notification | None:
    """Record a mail, once, and send it after the commit. None if it was recorded before, or if
    the player does not want it (then recorded as skipped only with `record_unwanted`)."""
    reason = _unwanted(user, kind)
    if reason and not record_unwanted:
        return None
    row, created = Notification.objects.get_or_create(
        user=user,
        kind=kind,
        game=game,
        turn=turn,
        threshold=threshold,
        day=day,
        defaults={
            "status": Status.SKIPPED if reason else Status.PENDING,
            "reason": reason,
            "enqueued_at": timezone.now() + timedelta(seconds=countdown),
        },
    )
    if not created:
        return None
    if row.status == Status.PENDING:
        _send_after_commit(row.pk, countdown)
    return row


def notification_record_skipped(
    *, user: User, kind: str, game: Game, turn: int, threshold: int, reason: str
) -> None:
    Notification.objects.get_or_create(
        user=user,
        kind=kind,
        game=game,
        turn=turn,
        threshold=threshold,
        defaults={"status": Status.SKIPPED, "reason": reason},
    )


def _send_after_commit(notification_id: int, countdown: float = 0) -> None:
    from .tasks import send_notification

    enqueue_on_commit(send_notification, (notification_id,), countdown=countdown)


def your_turn_queue(*, game: Game, seat: Seat) -> None:
    """A person's turn has begun (called in the move's transaction)."""
    if seat.user.is_bot:
        return
    notification_queue(
        user=seat.user,
        kind=Kind.YOUR_TURN,
        game=game,
        turn=game.turn_version,
        countdown=settings.YOUR_TURN_MAIL_DELAY_SECONDS,
    )


def game_over_queue(*, game: Game) -> None:
    """The game has ended (called in its transaction): a summary to every person at it."""
    for seat in game.seats.select_related("user"):
        if not seat.user.is_bot:
            notification_queue(user=seat.user, kind=Kind.GAME_OVER, game=game)


def digests_queue(*, now: datetime | None = None) -> int:
    """From DIGEST_HOUR (UTC) on, one digest a day to each player who chose it and has a game
    waiting on them; a later run the same day finds them sent. Returns how many were queued."""
    from .deadlines import on_vacation

    now = now or timezone.now()
    if now.astimezone(UTC).hour < settings.DIGEST_HOUR:
        return 0
    today = now.astimezone(UTC).date()
    users = (
        User.objects.filter(
            preferences__turn_mail=Preferences.TurnMail.DIGEST, is_bot=False, is_active=True
        )
        .exclude(email="")
        .filter(Exists(_games_waiting_on(OuterRef("pk"))))
    )
    sent_today = Notification.objects.filter(user=OuterRef("pk"), kind=Kind.DIGEST, day=today)
    users = users.exclude(Exists(sent_today))
    queued = 0
    for user in users:
        if on_vacation(user.pk, now):
            continue
        with transaction.atomic():
            queued += notification_queue(user=user, kind=Kind.DIGEST, day=today) is not None
    return queued


def _games_waiting_on(user):
    """The player's seats whose game waits on their move."""
    return Seat.objects.filter(
        user=user,
        game__status=Game.Status.ACTIVE,
        game__to_move_seat=F("index"),
        autopilot=False,
        resigned=False,
    )


def notifications_requeue_stale(*, now: datetime) -> int:
    """Pending mail whose task never ran (lost on a broker outage): queue it again."""
    stale = Notification.objects.filter(status=Status.PENDING, enqueued_at__lte=now - REQUEUE_AFTER)
    ids = list(stale.values_list("pk", flat=True)[:500])
    if ids:
        from .tasks import send_notification

        Notification.objects.filter(pk__in=ids).update(enqueued_at=now)
        for notification_id in ids:
            send_notification.delay(notification_id)
    return len(ids)


# -- sending ---------------------------------------------------------------------------------


def notification_send(*, notification_id: int, now: datetime | None = None) -> str:
    """Send one recorded mail unless it is done or no longer wanted; returns what happened. A mail
    error propagates (the row stays pending) so that the task retries."""
    now = now or timezone.now()
    with transaction.atomic():
        row = Notification.objects.select_for_update().filter(pk=notification_id).first()
        if row is None or row.status != Status.PENDING:
            return "done"
        reason = _unwanted(row.user, row.kind) or _no_longer_wanted(row, now)
        if reason:
            row.status, row.reason = Status.SKIPPED, reason
            row.save(update_fields=["status", "reason"])
            return reason
        wait = _wait_while_watching(row, now)
        if wait is not None:  # still pending: the same row is checked again later
            row.reason, row.enqueued_at = "watching", now + timedelta(seconds=wait)
            row.save(update_fields=["reason", "enqueued_at"])
            _send_after_commit(row.pk, wait)
            return "watching"
        compose(row).send()
        row.status, row.sent_at, row.reason = Status.SENT, timezone.now(), ""
        row.save(update_fields=["status", "sent_at", "reason"])
        return "sent"


def notification_postpone(*, notification_id: int, seconds: float) -> None:
    """Its task will run again in `seconds` (a retry's backoff): the sweep leaves it until then."""
    due = timezone.now() + timedelta(seconds=seconds)
    Notification.objects.filter(pk=notification_id, status=Status.PENDING).update(enqueued_at=due)


def notification_mark_failed(*, notification_id: int, reason: str) -> None:
    Notification.objects.filter(pk=notification_id, status=Status.PENDING).update(
        status=Status.FAILED, reason=reason[:40]
    )


def retry_delay(retries: int) -> float:
    """Exponential backoff with jitter: about 30 s, 1 min, 2 min … up to an hour."""
    return min(30 * 2**retries, 3600) * random.uniform(0.8, 1.2)


def _no_longer_wanted(row: Notification, now: datetime) -> str:
    from .deadlines import on_vacation

    game, user = row.game, row.user
    if row.kind in (Kind.YOUR_TURN, Kind.REMINDER):
        seat = game.seats.filter(user=user).first()
        if (
            game.status != Game.Status.ACTIVE
            or game.turn_version != row.turn
            or seat is None
            or seat.index != game.to_move_seat
            or seat.autopilot
            or seat.resigned
        ):
            return "moved_on"
        if on_vacation(user.pk, now):
            return "vacation"
        if row.kind == Kind.REMINDER and (game.deadline is None or game.deadline <= now):
            return "too_late"
    if row.kind == Kind.INVITATION and (
        game.status != Game.Status.OPEN or game.seats.filter(user=user).exists()
    ):
        return "moved_on"
    if (
        row.kind == Kind.INVITATION
        and not game.invitations.filter(invitee=user, status=Invitation.Status.PENDING).exists()
    ):
        return "declined"
    if row.kind == Kind.DIGEST and not _games_waiting_on(user).exists():
        return "nothing_waiting"
    return ""


def _wait_while_watching(row: Notification, now: datetime) -> float | None:
    """Seconds a 'your turn' mail waits because its player has the table open (None: send it)."""
    if row.kind != Kind.YOUR_TURN or preferences_of(row.user).turn_mail_while_watching:
        return None
    seat = row.game.seats.get(user=row.user)
    if not is_watching(seat, now):
        return None
    return watching_recheck_delay(seat=seat, since=row.created_at, now=now)


def watching_recheck_delay(*, seat: Seat, since: datetime, now: datetime) -> float:
    """When to look again: once the presence window has passed, and, while the player stays at
    the table, less and less often (the time waited so far, up to WATCHING_RECHECK_MAX)."""
    window_ends = seat.last_seen_at + timedelta(seconds=settings.PRESENCE_SECONDS)
    until_gone = (window_ends - now).total_seconds() + 1
    waited = min((now - since).total_seconds(), WATCHING_RECHECK_MAX.total_seconds())
    return max(until_gone, waited, 1.0)


# -- composing -------------------------------------------------------------------------------


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


# Short, so that the List-Unsubscribe header stays one unencoded word (Python's email encodes a
# word longer than a line, and mail clients then cannot read the address).
TOPIC_LETTERS = {"turn_mail": "t", "reminders": "r", "invitations": "i", "game_over": "g"}


def _token_mac(payload: str) -> str:
    return salted_hmac(UNSUBSCRIBE_SALT, payload, algorithm="sha256").hexdigest()[:20]


def unsubscribe_token(user: User, topic: str) -> str:
    """'<user id>.<topic letter>.<80-bit HMAC>': a proof needing no login, and no expiry."""
    payload = f"{user.pk}.{TOPIC_LETTERS[topic]}"
    return f"{payload}.{_token_mac(payload)}"


def unsubscribe_read(token: str) -> tuple[User, str] | None:
    """The player and topic a token from an email names, or None if it is not ours."""
    payload, _dot, mac = (token or "")[:80].rpartition(".")
    user_id, _dot, letter = payload.partition(".")
    topics = {letter: topic for topic, letter in TOPIC_LETTERS.items()}
    if not constant_time_compare(mac, _token_mac(payload)) or letter not in topics:
        return None
    user = User.objects.filter(pk=int(user_id), is_bot=False).first() if user_id.isdigit() else None
    return (user, topics[letter]) if user else None


def unsubscribe(*, token: str) -> tuple[User, str]:
    """Turn off what the token's email was about (no login: the signed token is the proof)."""
    found = unsubscribe_read(token)
    if found is None:
        raise GameError(_("This unsubscribe link is not valid."), status=404)
    user, topic = found
    off = Preferences.TurnMail.OFF if topic == "turn_mail" else False
    preferences_update(user=user, **{topic: off})
    return user, topic


def compose(row: Notification) -> EmailMultiAlternatives:
    context = CONTEXT_BUILDERS[row.kind](row)
    return build_message(row.kind, context, to=row.user.email)


def render_email(kind: str, context: dict) -> tuple[str, str, str]:
    """(subject, plain text, HTML) from templates/emails/<kind>.txt and .html."""
    with translation.override(settings.LANGUAGE_CODE):
        context = {**context, "kind": kind}
        text = render_to_string(f"emails/{kind}.txt", context)
        html = render_to_string(f"emails/{kind}.html", context)
    return context["subject"], text, html


def build_message(kind: str, context: dict, *, to: str) -> EmailMultiAlternatives:
    subject, text, html = render_email(kind, context)
    message = EmailMultiAlternatives(
        subject=one_line(subject),  # a header: a line break in a name would make it unsendable
        body=text,
        to=[to],
        headers={
            # RFC 8058: mail clients show an unsubscribe button that POSTs here.
            "List-Unsubscribe": f"<{context['unsubscribe_url']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def _base(user: User, kind: str) -> dict:
    topic = TOPIC_OF_KIND[kind]
    token = unsubscribe_token(user, topic)
    return {
        "name": user.name,
        "site_url": settings.SITE_URL,
        "unsubscribe_url": absolute(reverse("unsubscribe", kwargs={"token": token})),
        "preferences_url": absolute(reverse("notification_preferences")),
        "topic": topic_label(topic),
    }


def _game_url(game: Game) -> str:
    return absolute(reverse("game", kwargs={"game_id": game.pk}))


def _table_summary(game: Game, seat: Seat) -> dict:
    """The table as this seat sees it (its PlayerView only), for 'your turn' and reminders."""
    view = GameState.from_dict(game.state).view(seat.index)
    seats = list(game.seats.select_related("user").order_by("index"))
    names = [s.user.name for s in seats]
    wild = view.wild_rank
    moves = Move.objects.filter(game=game, seq__gte=seat.seen_version).exclude(seat=seat.index)
    since = [
        selectors.describe_move(redact_record(move.record, seat.index), names)
        for move in moves.order_by("seq")[:30]
    ]
    return {
        "game_number": game.pk,
        "round": view.round_index + 1,
        "rounds": view.round_count,
        "wild": selectors.rank_plural(wild),
        "hand": selectors.cards_info(selectors.sort_hand(view.hand or (), seat, wild), wild),
        "top_discard": selectors.card_info(view.top_discard, wild) if view.top_discard else None,
        "players": [
            {
                "name": names[i],
                "cards": view.card_counts[i],
                "total": view.totals[i],
                "is_me": i == seat.index,
                "autopilot": s.autopilot,
                "dropped": s.dropped,
            }
            for i, s in enumerate(seats)
        ],
        "since": since,
        "deadline": game.deadline,
        "play_url": _game_url(game),
    }


def _your_turn_context(row: Notification) -> dict:
    seat = row.game.seats.get(user=row.user)
    return {
        **_base(row.user, row.kind),
        **_table_summary(row.game, seat),
        "subject": _("Your turn in game #%(n)d") % {"n": row.game.pk},
    }


def _reminder_context(row: Notification) -> dict:
    seat = row.game.seats.get(user=row.user)
    left = timeuntil(row.game.deadline).replace("\xa0", " ")
    return {
        **_base(row.user, row.kind),
        **_table_summary(row.game, seat),
        "percent": row.threshold,
        "time_left": left,
        "subject": _("Reminder: %(left)s left for your move in game #%(n)d")
        % {"left": left, "n": row.game.pk},
    }


def _invitation_context(row: Notification) -> dict:
    game = row.game
    host = game.created_by.name
    return {
        **_base(row.user, row.kind),
        "host": host,
        "game_number": game.pk,
        "players": [s.user.name for s in game.seats.select_related("user")],
        "seat_count": game.seat_count,
        "time_per_move_days": game.time_per_move_days,
        "rules": selectors.rules_summary(Rules.from_dict(game.rules)),
        "join_url": absolute(reverse("invite", kwargs={"code": game.invite_code})),
        "subject": _("%(host)s invites you to a game of Three Thirteen") % {"host": host},
    }


def _game_over_context(row: Notification) -> dict:
    game = row.game
    seats = list(game.seats.select_related("user").order_by("index"))
    view = GameState.from_dict(game.state).view(None)
    ranking = selectors.ranking(game, seats)
    for entry, seat in zip(
        ranking, sorted(seats, key=lambda s: (s.final_rank or 99, s.index)), strict=True
    ):
        entry["dropped"] = seat.dropped
    mine = next(s for s in seats if s.user_id == row.user_id)
    winners = [r["name"] for r in ranking if r["winner"]]
    return {
        **_base(row.user, row.kind),
        "game_number": game.pk,
        "ranking": ranking,
        "my_rank": mine.final_rank,
        "my_total": mine.final_total,
        "names": [s.user.name for s in seats],
        "scoresheet": selectors.scoresheet(view),
        "game_url": _game_url(game),
        "replay_url": absolute(reverse("game_replay", kwargs={"game_id": game.pk})),
        "subject": _("Game #%(n)d is over: %(winners)s won")
        % {"n": game.pk, "winners": " & ".join(winners)},
    }


def _digest_context(row: Notification) -> dict:
    seats = _games_waiting_on(row.user).select_related("game").order_by("game__deadline", "pk")
    games = []
    for seat in seats:
        others = seat.game.seats.exclude(pk=seat.pk).select_related("user")
        games.append(
            {
                "game_number": seat.game.pk,
                "opponents": [s.user.name for s in others],
                "deadline": seat.game.deadline,
                "play_url": _game_url(seat.game),
            }
        )
    count = len(games)
    return {
        **_base(row.user, row.kind),
        "games": games,
        "subject": ngettext(
            "%(n)d game is waiting for your move", "%(n)d games are waiting for your move", count
        )
        % {"n": count},
    }


CONTEXT_BUILDERS = {
    Kind.YOUR_TURN: _your_turn_context,
    Kind.REMINDER: _reminder_context,
    Kind.INVITATION: _invitation_context,
    Kind.GAME_OVER: _game_over_context,
    Kind.DIGEST: _digest_context,
}


# -- previews --------------------------------------------------------------------------------


@functools.cache
def _sample_game() -> GameState:
    return simulate_game(Rules(), 3, "email-preview", ["easy"] * 3)


def sample_context(kind: str, user: User) -> dict:
    """Realistic made-up data for previewing a kind of email in the browser (nothing saved)."""
    names = [user.name, "Sam", "Easy Bot"]
    base = {**_base(user, kind), "game_number": 42}
    deadline = timezone.now() + timedelta(days=1, hours=3)
    state = GameState.new(Rules(), 3, "email-preview")
    view = state.view(state.to_move)
    wild = view.wild_rank
    table = {
        "round": 1,
        "rounds": view.round_count,
        "wild": selectors.rank_plural(wild),
        "hand": selectors.cards_info(selectors.sort_hand(view.hand, None, wild), wild),
        "top_discard": selectors.card_info(view.top_discard, wild),
        "players": [
            {
                "name": name,
                "cards": 3,
                "total": 0,
                "is_me": i == 0,
                "autopilot": False,
                "dropped": False,
            }
            for i, name in enumerate(names)
        ],
        "since": [_("Sam drew from the stock"), _("Sam discarded the 9♠")],
        "deadline": deadline,
        "play_url": absolute(reverse("game", kwargs={"game_id": 42})),
    }
    if kind == Kind.YOUR_TURN:
        return {**base, **table, "subject": _("Your turn in game #%(n)d") % {"n": 42}}
    if kind == Kind.REMINDER:
        left = timeuntil(deadline).replace("\xa0", " ")
        subject = _("Reminder: %(left)s left for your move in game #%(n)d")
        return {
            **base,
            **table,
            "percent": 50,
            "time_left": left,
            "subject": subject % {"left": left, "n": 42},
        }
    if kind == Kind.INVITATION:
        return {
            **base,
            "host": "Sam",
            "players": ["Sam"],
            "seat_count": 3,
            "time_per_move_days": 3,
            "rules": [_("Standard rules")],
            "join_url": absolute(reverse("invite", kwargs={"code": "preview"})),
            "subject": _("%(host)s invites you to a game of Three Thirteen") % {"host": "Sam"},
        }
    if kind == Kind.GAME_OVER:
        final = _sample_game()
        order = sorted(range(3), key=lambda i: final.totals[i])
        ranking = [
            {
                "rank": position + 1,
                "name": names[i],
                "total": final.totals[i],
                "resigned": False,
                "dropped": False,
                "winner": position == 0,
            }
            for position, i in enumerate(order)
        ]
        return {
            **base,
            "ranking": ranking,
            "my_rank": order.index(0) + 1,
            "my_total": final.totals[0],
            "names": names,
            "scoresheet": selectors.scoresheet(final.view(None)),
            "game_url": table["play_url"],
            "replay_url": table["play_url"] + "replay/",
            "subject": _("Game #%(n)d is over: %(winners)s won")
            % {"n": 42, "winners": ranking[0]["name"]},
        }
    games = [
        {
            "game_number": 42,
            "opponents": names[1:],
            "deadline": deadline,
            "play_url": table["play_url"],
        },
        {
            "game_number": 43,
            "opponents": ["Sam"],
            "deadline": None,
            "play_url": absolute(reverse("game", kwargs={"game_id": 43})),
        },
    ]
    subject = ngettext(
        "%(n)d game is waiting for your move", "%(n)d games are waiting for your move", 2
    )
    return {**base, "games": games, "subject": subject % {"n": 2}}
