"""The password a signed-in player types again: to delete the account, to confirm who they are
before changing the email address (allauth's reauthentication), to change the password. One limit
on the wrong ones, per player, for all these forms together ("password_wrong" in
settings.ACCOUNT_RATE_LIMITS, allauth's rate limits): whoever holds a stolen session cannot guess
the password through them. Past it a form is refused (429, accounts/middleware.py) before the
password is hashed."""

from allauth.core import context, ratelimit
from django import forms
from django.utils.translation import gettext_lazy as _

from .models import User

TOO_MANY = _(
    "Too many wrong passwords lately: try again later. If you have forgotten yours, log out and "
    "have a reset link mailed to you from the login page."
)


def password_matches(*, user: User, password: str) -> bool:
    """Whether `password` is `user`'s; forms.ValidationError (code "rate_limited") without
    checking it once the player has typed too many wrong ones."""
    request = context.request
    if not ratelimit.consume(request, action="password_wrong", user=user, dry_run=True):
        raise forms.ValidationError(TOO_MANY, code="rate_limited")
    if user.check_password(password):
        return True
    ratelimit.consume(request, action="password_wrong", user=user)
    return False
