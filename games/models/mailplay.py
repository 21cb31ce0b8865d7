"""Mail received at a turn's reply address (games/mailplay/)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .game import Game


class InboundMail(models.Model):
    """One mail received at a turn's reply address, kept once by its key (its Message-ID, or a
    digest of it): a provider's retry of the same mail finds the row and plays nothing again.
    What came of it is the record: played, a draw alone, refused (answered, saying why), or
    ignored (never answered: an auto-reply or bounce, an address not ours, a sender who is not
    the seat's player)."""

    class Outcome(models.TextChoices):
        PLAYED = "played", _("Played")
        DREW = "drew", _("Drew; the discard is awaited")
        REFUSED = "refused", _("Refused")
        IGNORED = "ignored", _("Ignored")

    key = models.CharField(max_length=200, unique=True)
    received_at = models.DateTimeField(auto_now_add=True)
    sender = models.CharField(max_length=254, blank=True)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="inbound_mails"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="inbound_mails",
        help_text="The seat's player, once the token and the sender both said so.",
    )
    version = models.PositiveIntegerField(null=True, blank=True, help_text="The token's.")
    command = models.CharField(max_length=500, blank=True, help_text="The reply's own text.")
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    reason = models.CharField(max_length=300, blank=True, help_text="Why refused or ignored.")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome__in=["played", "drew", "refused", "ignored"]),
                name="inbound_mail_outcome_valid",
            ),
            # An answer goes to the seat's player only: never to an unproven sender.
            models.CheckConstraint(
                condition=Q(outcome="ignored") | Q(user__isnull=False, game__isnull=False),
                name="inbound_mail_answered_only_to_the_player",
            ),
        ]

    def __str__(self) -> str:
        return f"Inbound mail {self.pk} ({self.outcome})"
