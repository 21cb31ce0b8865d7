"""Quick play: the rules presets and the players' seeks."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from .game import Game


class QuickPreset(models.TextChoices):
    """Quick play's rules presets: the kinds of rounds (Rules.rounds), every variant switch off."""

    CLASSIC = "classic", _("Standard")
    EXTENDED = "extended", _("Extended")
    UP_AND_DOWN = "up_and_down", _("Up and down")


QUICK_PRESETS = tuple(QuickPreset.values)


class Seek(models.Model):
    """A player's "find me a game": seated at once in a waiting quick-play game
    (games/competitions/quick.py), open while that game waits, matched when it starts, or
    cancelled (the seat freed)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        MATCHED = "matched", _("Matched")
        CANCELLED = "cancelled", _("Cancelled")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks"
    )
    seats = models.PositiveSmallIntegerField(null=True, blank=True, help_text="None: any.")
    preset = models.CharField(max_length=12, choices=QuickPreset.choices)
    time_per_move_days = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="seeks"
    )

    class Meta:
        constraints = [
            # "Any" seats and "no time" are NULL; the index reads them as 0 (never a real value,
            # the checks below say so), so that SQLite, which has no NULLS NOT DISTINCT, holds
            # the rule as PostgreSQL does: two racing clicks cannot both open the same seek.
            models.UniqueConstraint(
                "player",
                Coalesce("seats", 0),
                "preset",
                Coalesce("time_per_move_days", 0),
                condition=Q(status="open"),
                name="seek_one_open_per_combination",
            ),
            models.CheckConstraint(
                condition=Q(seats__isnull=True) | Q(seats__gte=2, seats__lte=4),
                name="seek_seats_2_to_4",
            ),
            models.CheckConstraint(
                condition=Q(time_per_move_days__isnull=True) | Q(time_per_move_days__gte=1),
                name="seek_time_at_least_a_day",
            ),
            models.CheckConstraint(condition=Q(preset__in=QUICK_PRESETS), name="seek_preset_valid"),
            models.CheckConstraint(
                condition=Q(status__in=["open", "matched", "cancelled"]),
                name="seek_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Seek {self.pk}"
