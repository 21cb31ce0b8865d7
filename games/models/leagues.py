"""Leagues: seasons of games among a league's members, in divisions by rating, each member
meeting every other member of their division (games/competitions/leagues.py)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .game import TIME_PER_MOVE_DAYS, Game
from .quick import QUICK_PRESETS, QuickPreset

DIVISION_SIZE_MIN, DIVISION_SIZE_MAX = 4, 8


class League(models.Model):
    name = models.CharField(_("name"), max_length=60, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    preset = models.CharField(_("rules"), max_length=12, choices=QuickPreset.choices)
    seats_per_table = models.PositiveSmallIntegerField(_("players at a table"), default=2)
    time_per_move_days = models.PositiveSmallIntegerField(_("time per move"), default=3)
    division_size = models.PositiveSmallIntegerField(_("players in a division"), default=6)
    movers = models.PositiveSmallIntegerField(
        _("players who move up or down"), default=2, help_text="Per division, at each end."
    )
    bots_fill = models.BooleanField(_("bots fill a short division"), default=True)
    # Players who abandoned more of their games than this percent may not join (None: anyone;
    # games/competitions/records.py).
    max_abandoned_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    registration_days = models.PositiveSmallIntegerField(_("days to join"), default=7)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(preset__in=QUICK_PRESETS), name="league_preset_valid"
            ),
            models.CheckConstraint(
                condition=Q(seats_per_table__in=[2, 3]), name="league_seats_2_or_3"
            ),
            models.CheckConstraint(
                condition=Q(time_per_move_days__in=list(TIME_PER_MOVE_DAYS)),
                name="league_time_per_move_valid",
            ),
            models.CheckConstraint(
                condition=Q(
                    division_size__gte=DIVISION_SIZE_MIN, division_size__lte=DIVISION_SIZE_MAX
                ),
                name="league_division_size_4_to_8",
            ),
            models.CheckConstraint(
                condition=Q(movers__gte=1, movers__lte=2), name="league_movers_1_or_2"
            ),
            models.CheckConstraint(
                condition=Q(registration_days__gte=1, registration_days__lte=30),
                name="league_registration_days_1_to_30",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class LeagueSeason(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Open for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    starts_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_number_unique"),
            models.UniqueConstraint(
                fields=["league"],
                condition=~Q(status="finished"),
                name="season_one_unfinished_per_league",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="season_number_positive"),
            models.CheckConstraint(
                condition=Q(status="registration", started_at__isnull=True, finished_at=None)
                | Q(status="playing", started_at__isnull=False, finished_at=None)
                | Q(status="finished", started_at__isnull=False, finished_at__isnull=False),
                name="season_times_match_status",
            ),
        ]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.league} {self.number}"


class Division(models.Model):
    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="divisions")
    level = models.PositiveSmallIntegerField(help_text="1 is the top division.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="division_level_unique"),
            models.CheckConstraint(condition=Q(level__gte=1), name="division_level_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.season} / {self.level}"


class LeagueEntry(models.Model):
    """A member's place in one season: their division once it starts, how they finished."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FORFEITED = "forfeited", _("Forfeited")

    class ForfeitReason(models.TextChoices):
        LEFT = "left", _("Left the league")
        DROPPED = "dropped", _("Dropped after too many timeouts")

    class Movement(models.TextChoices):
        UP = "up", _("Moves up")
        DOWN = "down", _("Moves down")
        STAY = "stay", _("Stays")

    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_entries"
    )
    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, null=True, blank=True, related_name="entries"
    )
    seed_rating = models.IntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    forfeit_reason = models.CharField(
        max_length=8, choices=ForfeitReason.choices, blank=True, default=""
    )
    forfeited_at = models.DateTimeField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    movement = models.CharField(max_length=4, choices=Movement.choices, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="league_entry_once_a_season"),
            models.CheckConstraint(
                condition=Q(status="playing", forfeit_reason="", forfeited_at=None)
                | Q(status="forfeited", forfeit_reason__in=["left", "dropped"])
                & Q(forfeited_at__isnull=False),
                name="league_entry_forfeit_recorded",
            ),
            models.CheckConstraint(
                condition=Q(movement__in=["", "up", "down", "stay"]),
                name="league_entry_movement_valid",
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True, movement="")
                | Q(place__gte=1, division__isnull=False) & ~Q(movement=""),
                name="league_entry_place_with_movement",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.season}"


class LeagueFixture(models.Model):
    """One table of a division's plan: the players (user ids, in seat order), the wave that
    plays it, and its game once the wave is created. A player who forfeited before it was
    played is in `absent` and out of `players`; an unplayed seat ranks last. A fixture left
    with fewer than two players is never played (a walkover)."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="fixtures")
    wave = models.PositiveSmallIntegerField()
    players = models.JSONField(default=list)
    absent = models.JSONField(default=list, blank=True)
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="league_fixture"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(wave__gte=1), name="fixture_wave_positive"),
        ]
        indexes = [models.Index(fields=["division", "wave"])]

    def __str__(self) -> str:
        return f"Fixture {self.pk} ({self.division})"
