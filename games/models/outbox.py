"""The outbox: every mail and push the site decided to send, recorded before it is sent."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .game import Game
from .mailplay import InboundMail


class Notification(models.Model):
    """One email or push the site decided to send, recorded before it is sent (an outbox), a row
    per channel. The unique constraints make each one happen once per channel: a 'your turn'
    notice per turn, a reminder per turn per threshold, an invitation per game, a game-over
    summary per game, a digest per day, a timed-out mail per turn, a dropped mail per game."""

    class Channel(models.TextChoices):
        MAIL = "mail", _("Email")
        PUSH = "push", _("Push notice")

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("Your turn")
        REMINDER = "reminder", _("Deadline reminder")
        INVITATION = "invitation", _("Invitation")
        GAME_OVER = "game_over", _("Game over")
        DIGEST = "digest", _("Daily digest")
        TIMED_OUT = "timed_out", _("Timed out: a bot plays for you")
        DROPPED = "dropped", _("Dropped after too many timeouts")
        # The waiting room's news: to the host, a player took a seat or declined; to the people
        # seated, the game started by itself.
        JOINED = "joined", _("A player took a seat")
        DECLINED = "declined", _("A player declined an invitation")
        STARTED = "started", _("The game started")
        # The answer to a mail received at a turn's reply address (games/mailplay/): what was
        # played, or why not.
        MAIL_ANSWER = "mail_answer", _("Answer to your mail")
        # A tournament ended: the player's place (its game: their last table of it).
        TOURNAMENT = "tournament", _("A tournament ended")
        # A league season is over: the player's place, and the one click into the next.
        LEAGUE_SEASON = "league_season", _("A league season ended")
        # A measure of the staff's (games/moderation.py): what, why, until when.
        MODERATION = "moderation", _("A moderator's decision")

    class Status(models.TextChoices):
        PENDING = "pending", _("To send")
        SENT = "sent", _("Sent")
        SKIPPED = "skipped", _("Not sent")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    channel = models.CharField(max_length=4, choices=Channel.choices, default=Channel.MAIL)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )
    turn = models.PositiveIntegerField(default=0, help_text="Game.turn_version of the turn.")
    threshold = models.PositiveSmallIntegerField(
        default=0, help_text="Reminders: the percent of the time per move used."
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who took a seat or declined (JOINED, DECLINED): once per player and game.",
    )
    day = models.DateField(null=True, blank=True, help_text="Digests: the day.")
    inbound = models.OneToOneField(
        InboundMail,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="answer",
        help_text="MAIL_ANSWER: the mail it answers (once).",
    )
    league_entry = models.ForeignKey(
        "games.LeagueEntry",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
        help_text="LEAGUE_SEASON: the player's entry of the season that ended.",
    )
    # Read only with its player's rows (the user index), and added to a large table without a
    # stop: neither an index of its own nor a database-side key (docs/operations.md, "Upgrades").
    moderation = models.ForeignKey(
        "games.ModerationAction",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        db_index=False,
        db_constraint=False,
        related_name="notifications",
        help_text="MODERATION: the measure it tells of (once: it is recorded with the measure).",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    reason = models.CharField(max_length=40, blank=True, help_text="Why it was not sent.")
    created_at = models.DateTimeField(auto_now_add=True)
    enqueued_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "channel", "game", "turn", "threshold"],
                condition=Q(game__isnull=False, player__isnull=True, inbound__isnull=True),
                name="notification_once_per_turn",
            ),
            models.UniqueConstraint(
                fields=["user", "kind", "channel", "game", "player"],
                condition=Q(player__isnull=False),
                name="notification_once_per_player",
            ),
            models.UniqueConstraint(
                fields=["user", "kind", "channel", "day"],
                condition=Q(game__isnull=True),
                name="notification_once_per_day",
            ),
            models.UniqueConstraint(
                fields=["user", "kind", "channel", "league_entry"],
                condition=Q(league_entry__isnull=False),
                name="notification_once_per_league_entry",
            ),
            models.CheckConstraint(
                condition=Q(
                    kind__in=[
                        "your_turn",
                        "reminder",
                        "invitation",
                        "game_over",
                        "digest",
                        "timed_out",
                        "dropped",
                        "joined",
                        "declined",
                        "started",
                        "mail_answer",
                        "tournament",
                        "league_season",
                        "moderation",
                    ]
                ),
                name="notification_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "sent", "skipped", "failed"]),
                name="notification_status_valid",
            ),
            # Pushes are for the moments that call for a player (notifications.policy.PUSH_KINDS).
            models.CheckConstraint(
                condition=Q(channel="mail")
                | Q(
                    channel="push",
                    kind__in=[
                        "your_turn",
                        "reminder",
                        "invitation",
                        "joined",
                        "declined",
                        "started",
                    ],
                ),
                name="notification_channel_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind="digest", game__isnull=True, day__isnull=False)
                | Q(kind__in=["league_season", "moderation"], game__isnull=True, day__isnull=True)
                | ~Q(kind__in=["digest", "league_season", "moderation"])
                & Q(game__isnull=False, day__isnull=True),
                name="notification_digest_has_a_day_others_a_game",
            ),
            models.CheckConstraint(
                condition=Q(kind="league_season", league_entry__isnull=False)
                | ~Q(kind="league_season") & Q(league_entry__isnull=True),
                name="notification_league_entry_iff_league_season",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=True) | Q(kind__in=["joined", "declined"]),
                name="notification_player_iff_seat_news",
            ),
            models.CheckConstraint(
                condition=Q(kind="mail_answer", inbound__isnull=False, channel="mail")
                | ~Q(kind="mail_answer") & Q(inbound__isnull=True),
                name="notification_inbound_iff_mail_answer",
            ),
            models.CheckConstraint(
                condition=Q(kind="reminder", threshold__gt=0, threshold__lt=100)
                | ~Q(kind="reminder") & Q(threshold=0),
                name="notification_threshold_iff_reminder",
            ),
            models.CheckConstraint(
                condition=Q(status="sent", sent_at__isnull=False)
                | ~Q(status="sent") & Q(sent_at__isnull=True),
                name="notification_sent_at_iff_sent",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "enqueued_at"]),
            # The notice centre and the bar's count: a player's mails since their last look
            # (selectors/notices.py), not all their mails ever.
            models.Index(
                fields=["user", "created_at"],
                condition=Q(channel="mail"),
                name="notification_user_mail",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.channel} to {self.user_id} ({self.status})"
