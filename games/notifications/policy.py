"""The sending policy: which channels a kind of notice goes by, which mail or push a player wants
(their preferences, an address or a device), whether a recorded notice is still wanted when its
task runs, how long a 'your turn' notice waits while its player is at the table, and how long a
failed send waits before it is tried again. Mail and push answer to the same rules."""

from __future__ import annotations

import random
import smtplib
from datetime import datetime, timedelta

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.models import Preferences, User
from accounts.selectors import has_push_device, preferences_of, verified_email

from ..models import Game, Invitation, Notification, Seat
from ..selectors.lists import games_waiting_on
from ..selectors.pauses import on_vacation
from .presence import is_watching


class PushServiceBusy(Exception):
    """A push service failed for now (down, overloaded, slow): the push is tried again later."""


# Errors worth trying again later: the mail server or push service is down, slow or refusing
# for now (a connection error is an OSError, requests' included).
SEND_ERRORS = (smtplib.SMTPException, OSError, PushServiceBusy)

# The kinds that also go to the player's devices: the moments that call for them to act, and
# the waiting room's news, where a game waiting on nobody in particular would otherwise die.
PUSH_KINDS = (
    Notification.Kind.YOUR_TURN,
    Notification.Kind.REMINDER,
    Notification.Kind.INVITATION,
    Notification.Kind.JOINED,
    Notification.Kind.DECLINED,
    Notification.Kind.STARTED,
)
# The waiting room's news: worth a mail or push only to a player who is not looking at the game.
SEAT_NEWS_KINDS = (
    Notification.Kind.JOINED,
    Notification.Kind.DECLINED,
    Notification.Kind.STARTED,
)


# Which preference each kind of mail answers to (and its unsubscribe link turns off).
TOPIC_OF_KIND = {
    Notification.Kind.YOUR_TURN: "turn_mail",
    Notification.Kind.DIGEST: "turn_mail",
    Notification.Kind.REMINDER: "reminders",
    Notification.Kind.INVITATION: "invitations",
    Notification.Kind.GAME_OVER: "game_over",
    # Timing out is where the reminders lead: whoever wants to hear that their time is running
    # out wants to hear that it ran out. Being dropped ends the game for that player: it goes
    # with the game-over summaries.
    Notification.Kind.TIMED_OUT: "reminders",
    Notification.Kind.DROPPED: "game_over",
    # Who answered the host's call, and the game it made starting: the news of bringing
    # players together, as the invitations are.
    Notification.Kind.JOINED: "invitations",
    Notification.Kind.DECLINED: "invitations",
    Notification.Kind.STARTED: "invitations",
    # An answer to the player's own mail is always sent (they wrote to us); its unsubscribe link
    # is the turn mails'.
    Notification.Kind.MAIL_ANSWER: "turn_mail",
    # A tournament's final place: the summary of many games.
    Notification.Kind.TOURNAMENT: "game_over",
    # A season's result and the way into the next: the end of a league's games.
    Notification.Kind.LEAGUE_SEASON: "game_over",
}


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


def push_configured() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def channels_of(kind: str) -> tuple[str, ...]:
    """The channels a notice of this kind goes by, each recorded and sent on its own."""
    if kind in PUSH_KINDS and push_configured():
        return (Notification.Channel.MAIL, Notification.Channel.PUSH)
    return (Notification.Channel.MAIL,)


def wants(preferences: Preferences, kind: str, channel: str = Notification.Channel.MAIL) -> bool:
    if channel == Notification.Channel.PUSH:
        # The push switch stands for 'your turn' (turn_mail is about the inbox: a player who
        # reads a digest by mail may well want a notice on the phone); the topics hold for both.
        return preferences.push and (
            kind == Notification.Kind.YOUR_TURN or bool(getattr(preferences, TOPIC_OF_KIND[kind]))
        )
    if kind in (Notification.Kind.MAIL_ANSWER, Notification.Kind.MODERATION):
        return True  # they wrote to us; the moderators' measures are told whatever the settings
    if kind == Notification.Kind.YOUR_TURN:
        return preferences.turn_mail == Preferences.TurnMail.EACH
    if kind == Notification.Kind.DIGEST:
        return preferences.turn_mail == Preferences.TurnMail.DIGEST
    return bool(getattr(preferences, TOPIC_OF_KIND[kind]))


def unwanted_reason(user: User, kind: str, channel: str = Notification.Channel.MAIL) -> str:
    """Why this player gets no notice of this kind on this channel ('' if they do)."""
    # A closed account hears why (a moderator's measure); any other inactive one hears nothing.
    if user.is_bot or not (user.is_active or kind == Notification.Kind.MODERATION):
        return "no_address"
    if channel == Notification.Channel.PUSH:
        if not has_push_device(user):
            return "no_device"
    elif not verified_email(user):
        return "no_address"
    if not wants(preferences_of(user), kind, channel):
        return "preference"
    return ""


def no_longer_wanted(row: Notification, now: datetime) -> str:
    game, user = row.game, row.user
    if row.kind in (Notification.Kind.YOUR_TURN, Notification.Kind.REMINDER):
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
        if row.kind == Notification.Kind.REMINDER and (
            game.deadline is None or game.deadline <= now
        ):
            return "too_late"
    if row.kind == Notification.Kind.INVITATION and (
        game.status != Game.Status.OPEN or game.seats.filter(user=user).exists()
    ):
        return "moved_on"
    if (
        row.kind == Notification.Kind.INVITATION
        and not game.invitations.filter(invitee=user, status=Invitation.Status.PENDING).exists()
    ):
        return "declined"
    if row.kind in SEAT_NEWS_KINDS:
        if game.status == Game.Status.CANCELLED:
            return "moved_on"
        seat = game.seats.filter(user=user).first()
        if seat is not None and is_watching(seat, now):
            return "seen"  # the page (its poll) showed it
    if row.kind == Notification.Kind.DIGEST and not games_waiting_on(user).exists():
        return "nothing_waiting"
    if row.kind == Notification.Kind.TIMED_OUT and not still_on_autopilot(row):
        return "moved_on"
    return ""


def still_on_autopilot(row: Notification) -> bool:
    """The timeout this mail tells of still stands: the player has not come back (nor timed out
    again since, nor been dropped) and the game goes on."""
    seat = row.game.seats.filter(user=row.user).first()
    later = Notification.objects.filter(
        user=row.user, game=row.game, kind=row.kind, turn__gt=row.turn
    )
    return (
        row.game.status == Game.Status.ACTIVE
        and seat is not None
        and seat.autopilot
        and not later.exists()
    )


def wait_while_watching(row: Notification, now: datetime) -> float | None:
    """Seconds a 'your turn' notice (mail or push) waits because its player has the table open
    (None: send it)."""
    if row.kind != Notification.Kind.YOUR_TURN or preferences_of(row.user).turn_mail_while_watching:
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


def retry_delay(retries: int) -> float:
    """Exponential backoff with jitter: about 30 s, 1 min, 2 min … up to an hour."""
    return min(30 * 2**retries, 3600) * random.uniform(0.8, 1.2)
