"""The staff's moderation queue: players report a chat message (games/chat.py) or a player (the
player page); the staff, with the permission `games.moderate` (not superuser), work through the
reports grouped by player, and take one measure at a time. Each measure is logged with who took
it and why, resolves the player's open reports (a warning leaves them open, so that another
measure can follow on the same case; hiding a message resolves that message's), and is told to
the player by mail in their language (the outbox). The pages are games/views/moderation.py,
outside the admin.

Measures: dismiss the reports; hide a message (its text is no longer shown to anyone); warn; mute
in every chat for some days; ask for another name (until the player changes it, others see a
neutral name); suspend for some days (no new games, no moves: their games in play go on with
the autopilot, which drops no one); close the account (it can no longer log in; the same for its
games)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User

from .errors import GameError
from .models import (
    PLAYER_REPORT_NOTE_MAX_LENGTH,
    ChatMessage,
    ChatReport,
    Game,
    ModerationAction,
    Notification,
    PlayerReport,
    Seat,
)
from .notifications.outbox import notification_queue
from .services import game_queue_next

PERMISSION = "games.moderate"
MAX_DAYS = 365
CONTEXT_MESSAGES = 3  # on each side of a reported message
Kind = ModerationAction.Kind
TIMED = (Kind.MUTE, Kind.SUSPEND)


def is_moderator(user: User) -> bool:
    """A staff account with the queue's permission. (A player who is not staff is answered
    without reading permissions: the pages that show a moderator's links cost them nothing.)"""
    return user.is_authenticated and user.is_active and user.is_staff and user.has_perm(PERMISSION)


def require_moderator(user: User) -> None:
    if not is_moderator(user):
        raise PermissionDenied


def player_report(*, reporter: User, player: User, reason: str, note: str = "") -> PlayerReport:
    """Flag a player for the staff; once per reason while it is open."""
    if player.pk == reporter.pk:
        raise GameError(_("You cannot report yourself."))
    if player.is_site_bot:
        raise GameError(_("The site's bots are the site's own: there is nothing to report."))
    if reason not in PlayerReport.Reason.values:
        raise GameError(_("Choose a reason from the list."))
    note = " ".join((note or "").split())
    if len(note) > PLAYER_REPORT_NOTE_MAX_LENGTH:
        raise GameError(
            _("A note may have at most %(n)d characters.") % {"n": PLAYER_REPORT_NOTE_MAX_LENGTH}
        )
    report, _created = PlayerReport.objects.get_or_create(
        reporter=reporter, player=player, reason=reason, resolved=False, defaults={"note": note}
    )
    return report


# Reading the queue.


def open_chat_reports():
    return ChatReport.objects.filter(resolved=False)


def has_open_reports(player: User) -> bool:
    """Whether the player's case is still open: a report of them or of a message of theirs."""
    return (
        open_chat_reports().filter(message__author=player).exists()
        or PlayerReport.objects.filter(player=player, resolved=False).exists()
    )


def queue(*, staff: User) -> list[dict]:
    """The players with open reports, the most reported first: each with its counts and when it
    was last reported."""
    require_moderator(staff)
    chat = (
        open_chat_reports()
        .values("message__author")
        .annotate(n=Count("pk"), last=Max("created_at"))
    )
    players = (
        PlayerReport.objects.filter(resolved=False)
        .values("player")
        .annotate(n=Count("pk"), last=Max("created_at"))
    )
    rows: dict[int, dict] = {}
    for row in chat:
        rows[row["message__author"]] = {"chat": row["n"], "players": 0, "last": row["last"]}
    for row in players:
        entry = rows.setdefault(row["player"], {"chat": 0, "players": 0, "last": row["last"]})
        entry["players"] = row["n"]
        entry["last"] = max(entry["last"], row["last"])
    users = User.objects.in_bulk(rows)
    listed = [
        {"player": users[pk], **row, "total": row["chat"] + row["players"]}
        for pk, row in rows.items()
    ]
    return sorted(listed, key=lambda row: (-row["total"], row["last"]))


@dataclass
class ReportedMessage:
    message: ChatMessage
    reporters: list[User]
    context: list[ChatMessage] = field(default_factory=list)


def case(*, staff: User, player: User) -> dict:
    """Everything the staff read before acting on a player: each reported message in its
    context (the messages around it in its game's chat), the reports of the player, and the
    measures taken before."""
    require_moderator(staff)
    reported: dict[int, ReportedMessage] = {}
    reports = (
        open_chat_reports()
        .filter(message__author=player)
        .select_related("message__game", "reporter")
        .order_by("message__game", "message__seq")
    )
    for report in reports:
        entry = reported.setdefault(report.message_id, ReportedMessage(report.message, []))
        entry.reporters.append(report.reporter)
    # Every reported message's neighbours in one query, however many were reported.
    around = Q(pk__in=[])
    for entry in reported.values():
        seq = entry.message.seq
        around |= Q(
            game_id=entry.message.game_id,
            seq__range=(seq - CONTEXT_MESSAGES, seq + CONTEXT_MESSAGES),
        )
    lines = list(ChatMessage.objects.filter(around).select_related("author").order_by("seq"))
    for entry in reported.values():
        message = entry.message
        entry.context = [
            line
            for line in lines
            if line.game_id == message.game_id and abs(line.seq - message.seq) <= CONTEXT_MESSAGES
        ]
    return {
        "player": player,
        "reported_messages": list(reported.values()),
        "reports": list(
            PlayerReport.objects.filter(player=player, resolved=False).select_related("reporter")
        ),
        "history": list(ModerationAction.objects.filter(player=player).select_related("staff")),
        "games_in_play": Seat.objects.filter(user=player, game__status=Game.Status.ACTIVE).count(),
    }


# Acting.


@transaction.atomic
def act(
    *,
    staff: User,
    player: User,
    kind: str,
    reason: str,
    days: int | None = None,
    message_id: int | None = None,
) -> ModerationAction:
    """Take one measure against `player`: logged, the player's open reports resolved (hiding a
    message resolves that message's, a warning none: the case stays open for another measure),
    and the player told by mail (dismissing tells no one)."""
    require_moderator(staff)
    player = User.objects.select_for_update().get(pk=player.pk)
    if kind not in Kind.values:
        raise GameError(_("Choose a measure from the list."))
    reason = (reason or "").strip()
    if not reason:
        raise GameError(_("Say why: the player is told it."))
    if player.pk == staff.pk:
        raise GameError(_("Another moderator deals with reports about you."), status=403)
    if player.is_site_bot or player.is_deleted:
        raise GameError(_("This account is not a person's."), status=409)
    now = timezone.now()
    until = None
    if kind in TIMED:
        if days is None or not 1 <= days <= MAX_DAYS:
            raise GameError(_("Give a number of days from 1 to %(n)d.") % {"n": MAX_DAYS})
        until = now + timedelta(days=days)
    message = None
    if kind == Kind.HIDE:
        message = ChatMessage.objects.filter(pk=message_id, author=player).first()
        if message is None:
            raise GameError(_("Choose one of this player's messages."), status=404)
    action = ModerationAction.objects.create(
        player=player, staff=staff, kind=kind, reason=reason, until=until, message=message
    )
    _apply(action, now)
    if kind == Kind.HIDE:
        ChatReport.objects.filter(message=message, resolved=False).update(resolved=True)
    elif kind != Kind.WARN:
        ChatReport.objects.filter(message__author=player, resolved=False).update(resolved=True)
        PlayerReport.objects.filter(player=player, resolved=False).update(resolved=True)
    if kind != Kind.DISMISS:
        notification_queue(user=player, kind=Notification.Kind.MODERATION, moderation=action)
    return action


def _apply(action: ModerationAction, now) -> None:
    player, kind = action.player, action.kind
    if kind == Kind.HIDE:
        assert action.message is not None
        ChatMessage.objects.filter(pk=action.message.pk).update(hidden_at=now)
    elif kind == Kind.MUTE:
        player.chat_muted_until = action.until
        player.save(update_fields=["chat_muted_until"])
    elif kind == Kind.RENAME:
        player.name_change_due = True
        player.save(update_fields=["name_change_due"])
    elif kind in (Kind.SUSPEND, Kind.CLOSE):
        if kind == Kind.SUSPEND:
            player.suspended_until = action.until
            player.save(update_fields=["suspended_until"])
        else:
            player.is_active = False
            player.save(update_fields=["is_active"])
        # Their games go on without them: the autopilot plays their seats, counting no
        # timeouts (autopilot_since stays empty), so no game drops them for it.
        seats = Seat.objects.filter(
            user=player, game__status=Game.Status.ACTIVE, resigned=False, autopilot=False
        )
        game_ids = list(seats.values_list("game_id", flat=True))
        seats.update(autopilot=True, autopilot_since=None)
        for game in Game.objects.filter(pk__in=game_ids):
            game_queue_next(game=game)
