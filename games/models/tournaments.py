"""Tournaments: a host's event of several rounds, each round seating its players at tables by
their standing (Swiss), every table a game the site seats and starts
(games/competitions/tournaments.py)."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from .game import Game
from .quick import QUICK_PRESETS, QuickPreset

TOURNAMENT_SEATS = (2, 3, 4)
TOURNAMENT_MAX_ROUNDS = 9
TOURNAMENT_MAX_PLAYERS = 2000


class Tournament(models.Model):
    """Open for entries until it starts (at `starts_at`, or earlier by its host), then playing
    round after round, finished with a winner; cancelled if too few joined."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open for entries")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_hosted"
    )
    preset = models.CharField(max_length=12, choices=QuickPreset.choices)
    seats_per_table = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField()
    time_per_move_days = models.PositiveSmallIntegerField(null=True, blank=True)
    starts_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    bot_level = models.CharField(
        max_length=12, blank=True, help_text="Bots of this level fill short tables ('' : none)."
    )
    # Players who abandoned more of their games than this percent may not join (None: anyone;
    # games/competitions/records.py).
    max_abandoned_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments_won",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(seats_per_table__gte=2, seats_per_table__lte=4),
                name="tournament_seats_2_to_4",
            ),
            models.CheckConstraint(
                condition=Q(rounds__gte=1, rounds__lte=TOURNAMENT_MAX_ROUNDS),
                name="tournament_rounds_1_to_9",
            ),
            models.CheckConstraint(
                condition=Q(current_round__lte=F("rounds")), name="tournament_round_in_range"
            ),
            models.CheckConstraint(
                condition=Q(preset__in=QUICK_PRESETS), name="tournament_preset_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["open", "playing", "finished", "cancelled"]),
                name="tournament_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status="open", started_at__isnull=True, current_round=0)
                | Q(status="cancelled", started_at__isnull=True)
                | Q(status__in=["playing", "finished"], started_at__isnull=False),
                name="tournament_started_iff_playing",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["finished", "cancelled"], finished_at__isnull=False)
                | Q(status__in=["open", "playing"], finished_at__isnull=True),
                name="tournament_finished_at_iff_over",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(status="finished"),
                name="tournament_winner_only_when_finished",
            ),
        ]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name


class TournamentEntry(models.Model):
    """A player in a tournament: joined before its start; `rating` is their rating when it
    started (round 1's seeding), `place` their final place (shared on a full tie)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    rating = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_entry_once"),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1), name="tournament_place_from_1"
            ),
        ]
        indexes = [models.Index(fields=["user", "place"])]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_once"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=TOURNAMENT_MAX_ROUNDS),
                name="tournament_round_number_1_to_9",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.tournament_id}"


class TournamentTable(models.Model):
    """One table of a round: a game, or a bye (a player left over, who scores as a win)."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="tournament_table"
    )
    bye = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="tournament_table_once"),
            models.UniqueConstraint(
                fields=["round"], condition=Q(bye__isnull=False), name="tournament_one_bye_a_round"
            ),
            models.CheckConstraint(
                condition=Q(game__isnull=False, bye__isnull=True)
                | Q(game__isnull=True, bye__isnull=False),
                name="tournament_table_a_game_or_a_bye",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} of {self.round_id}"
