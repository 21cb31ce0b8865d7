"""The staff's moderation (games/moderation.py): players reported by other players, and every
measure the staff took, with who took it and why."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

PLAYER_REPORT_NOTE_MAX_LENGTH = 500


class PlayerReport(models.Model):
    """A player reported another (the player page's "Report this player"): once per reason while
    the staff have not dealt with it."""

    class Reason(models.TextChoices):
        NAME = "name", _("An abusive name")
        STALLING = "stalling", _("Stalling: lets the clock run on purpose")
        ABANDONING = "abandoning", _("Abandoning games")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_reports"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_against"
    )
    reason = models.CharField(max_length=12, choices=Reason.choices)
    note = models.TextField(blank=True, max_length=PLAYER_REPORT_NOTE_MAX_LENGTH)
    created_at = models.DateTimeField(default=timezone.now)
    resolved = models.BooleanField(default=False, help_text="A staff member has dealt with it.")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "player", "reason"],
                condition=Q(resolved=False),
                name="player_report_once_while_open",
            ),
            models.CheckConstraint(
                condition=Q(reason__in=["name", "stalling", "abandoning"]),
                name="player_report_reason_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.reporter_id} reports {self.player_id}: {self.reason}"


class ModerationAction(models.Model):
    """One measure of the staff's, kept for good: what, to whom, by whom, why, until when."""

    class Kind(models.TextChoices):
        DISMISS = "dismiss", _("Dismiss the reports")
        HIDE = "hide", _("Hide the message")
        WARN = "warn", _("Warn")
        MUTE = "mute", _("Mute in chat")
        RENAME = "rename", _("Ask for another name")
        SUSPEND = "suspend", _("Suspend")
        CLOSE = "close", _("Close the account")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation_actions"
    )
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    reason = models.TextField(help_text="Why, in the staff's words; the player is told it.")
    message = models.ForeignKey(
        "games.ChatMessage", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    until = models.DateTimeField(null=True, blank=True, help_text="A mute's or suspension's end.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        permissions = [("moderate", "Can work through the moderation queue")]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    kind__in=["dismiss", "hide", "warn", "mute", "rename", "suspend", "close"]
                ),
                name="moderation_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.player_id} by {self.staff_id}"
