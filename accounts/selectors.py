"""Reads for accounts."""

from .models import Preferences, User


def preferences_of(user: User) -> Preferences:
    """The player's preferences; the defaults (unsaved) for a player who never changed them."""
    preferences = Preferences.objects.filter(user_id=user.pk).first()
    return preferences or Preferences(user=user)
