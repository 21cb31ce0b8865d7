"""A game's review (games/reviews.py): a seat's decisions in one round set beside the hard
level's choices, with what each cost, made by a task once the round has ended."""

from django.db import models
from django.db.models import Q

from .game import Seat


class RoundReview(models.Model):
    """One seat's round, reviewed: its judged decisions (engine bots.review.Decision.to_dict(),
    in the order played) and the round's figures. One per seat and round, so a task that runs
    twice stores it once."""

    seat = models.ForeignKey(
        Seat,
        on_delete=models.CASCADE,
        related_name="reviews",
        db_index=False,  # review_unique_round leads with it
    )
    round_index = models.PositiveSmallIntegerField()
    decisions = models.JSONField(help_text="the seat's own cards: shown as the review page says")
    judged = models.PositiveSmallIntegerField(help_text="decisions with more than one choice")
    accurate = models.PositiveSmallIntegerField(help_text="of those, within a point of the best")
    lost = models.FloatField(
        help_text="penalty points given up: the decisions' expected costs summed, at most the "
        "round's penalty"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seat", "round_index"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "round_index"], name="review_unique_round"),
            models.CheckConstraint(
                condition=Q(accurate__lte=models.F("judged")), name="review_accurate_of_judged"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat} round {self.round_index + 1}: {self.accurate}/{self.judged}"


# A review stored by the code before migration 0026 priced it in the player's own points: its
# decisions have no "bound". An old worker may still store one while a new version rolls out
# (docs/operations.md, "Upgrades without a stop"); the page counts it as waiting and the task
# makes it again.
PRICED_BEFORE = Q(decisions__0__isnull=False) & ~Q(decisions__0__has_key="bound")
