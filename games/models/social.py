"""Between players: who follows whom, the games' chat, mutes and reports."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.db.models.lookups import Range
from django.utils import timezone

from .game import Game


class Follow(models.Model):
    """One player follows another: the followee is on the follower's friends page and may take a
    seat at the follower's friends-only games. One-way, like a bookmark; two rows are a mutual
    follow. Only people are followed (friends.follow_create says why)."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following"
    )
    followee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followee"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followee")), name="follow_not_oneself"),
        ]
        # "Does the host follow me", "do they follow me back": read from the followee's side.
        indexes = [models.Index(fields=["followee", "follower"], name="follow_followee")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followee_id}"


CHAT_MESSAGE_MAX_LENGTH = 500


class ChatMessage(models.Model):
    """One message in a game's chat, kept with the game. `seq` numbers the game's messages from 1
    (the game's chat_count after it); `version` is the game's version when it was written, so the
    replay shows it after the move it followed. The text is shown escaped, as typed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    seq = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.TextField(help_text="At most CHAT_MESSAGE_MAX_LENGTH characters (a constraint).")
    version = models.PositiveIntegerField(help_text="The game's version when it was written.")
    created_at = models.DateTimeField(default=timezone.now)
    hidden_at = models.DateTimeField(
        null=True, blank=True, help_text="Hidden by the staff (games/moderation.py)."
    )

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="chat_unique_seq"),
            models.CheckConstraint(
                condition=Range(Length("text"), (1, CHAT_MESSAGE_MAX_LENGTH)),
                name="chat_text_length",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="chat_seq_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.game} message {self.seq}"


class Mute(models.Model):
    """`muter` no longer sees what `muted` writes, in any game's chat."""

    muter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes"
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="muted_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="mute_once"),
            models.CheckConstraint(condition=~Q(muter=F("muted")), name="mute_not_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.muter_id} mutes {self.muted_id}"


class ChatReport(models.Model):
    """A player flagged a chat message for the staff, who read reports in the admin."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved = models.BooleanField(default=False, help_text="A staff member has dealt with it.")

    class Meta:
        ordering = ["resolved", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]

    def __str__(self) -> str:
        return f"Report of {self.message} by {self.reporter_id}"
