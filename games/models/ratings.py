"""Players' ratings and how each rated game changed them."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from .game import Game


class Rating(models.Model):
    """A player's current OpenSkill (Plackett-Luce) rating: people and bot accounts alike, so that
    a newcomer can see how strong each bot is. Each bot account is rated on its own, the numbered
    siblings ("Easy Bot 2") too: two seats of one kind at a table must be two players to the
    model, and a sibling only ever sits beside its first account, so their numbers agree.
    `ordinal` (mu - 3 sigma, a conservative estimate) orders the leaderboard; games/ratings.py
    says which games are rated and writes this row with the game's RatingChange rows."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0, help_text="Rated games played.")
    # Not columns: the leaderboard's rows (selectors.ratings.leaderboard) carry these for its
    # page (declared for the type checker; a rating read otherwise has none).
    place: int | None
    display: int

    class Meta:
        indexes = [models.Index(fields=["-ordinal", "user"], name="rating_leaderboard")]
        constraints = [
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"Rating of {self.user_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating. Unique per (game, user): a game can change
    a rating once, whatever calls the rating code twice (the constraint, not a check, says so)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_after = models.FloatField()
    # The game's finished_at, copied: a player's history is read from these rows alone.
    finished_at = models.DateTimeField()
    # Not columns: a player's rating history (selectors.ratings.player_profile) carries these
    # for its page (declared for the type checker; a change read otherwise has none).
    display: int
    delta: int

    class Meta:
        ordering = ["finished_at", "game"]
        indexes = [models.Index(fields=["user", "finished_at", "game"], name="ratingchange_user")]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="ratingchange_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game} rating of {self.user_id}"
