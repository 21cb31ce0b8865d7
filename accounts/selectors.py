"""Reads for accounts."""

from allauth.account.models import EmailAddress
from django.db.models import Exists, OuterRef, QuerySet

from .models import Preferences, PushSubscription, User


def preferences_of(user: User) -> Preferences:
    """The player's preferences; the defaults (unsaved) for a player who never changed them."""
    preferences = Preferences.objects.filter(user_id=user.pk).first()
    return preferences or Preferences(user=user)


def player_named(username: str, users: QuerySet[User] | None = None) -> User | None:
    """The account called `username` among `users` (all by default), None if there is none. A
    name with a NUL names no one: PostgreSQL would refuse it in the query (a 500)."""
    if "\x00" in username:
        return None
    return (User.objects.all() if users is None else users).filter(username=username).first()


def verified_email(user: User) -> str:
    """The address mail about games may go to: the account's email once it is verified, else ''.
    (An address changed in settings replaces this one only when the new one is verified.)"""
    if not user.email:
        return ""
    verified = User.objects.filter(pk=user.pk).filter(has_verified_email()).exists()
    return user.email if verified else ""


def has_verified_email() -> Exists:
    """For a query over users: their account email is verified."""
    return Exists(
        EmailAddress.objects.filter(
            user_id=OuterRef("pk"), email__iexact=OuterRef("email"), verified=True
        )
    )


def has_push_device(user: User) -> bool:
    """The player turned push notices on in at least one browser or phone."""
    return PushSubscription.objects.filter(user_id=user.pk).exists()
