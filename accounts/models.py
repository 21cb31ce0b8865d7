from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player: a person, or a bot account that plays the seats given to it."""

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_kind = models.CharField(_("bot kind"), max_length=20, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(is_bot=True, bot_kind__gt="")
                | models.Q(is_bot=False, bot_kind=""),
                name="bot_kind_iff_bot",
            ),
            models.UniqueConstraint(
                fields=["bot_kind"],
                condition=models.Q(is_bot=True),
                name="one_account_per_bot_kind",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.display_name or self.username
