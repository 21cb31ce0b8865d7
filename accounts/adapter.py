"""How django-allauth fits this site: the display name chosen at sign-up is saved with the account,
and failed logins are counted so that guessing stays slow without letting a stranger lock a player
out. (Refused forms answer 400, and 429 while guessing is rate-limited: accounts/middleware.py.)"""

import unicodedata

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import ratelimit
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from . import refusals, twofactor
from .names import validate_username
from .passwords import password_matches


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": _(
            "Too many failed login attempts from here: try again in a few minutes, or reset "
            "your password by the link below (the mail it sends lets you in)."
        ),
        "account_guessed": _(
            "Too many failed attempts to log in to this account lately, from several places: "
            "someone may be guessing its password. If it is yours, log in with your email "
            "address instead of your username (or the other way round), or reset your password "
            "by the link below (the mail it sends lets you in)."
        ),
        "two_factor_asked": _(
            "Your account has two-factor authentication: confirm with its code or your passkey "
            "instead."
        ),
    }

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """In NFKC, as Django keeps usernames, so that one compared without regard to case
        (names.name_taken) is compared without regard to width too; and not a name another
        account goes by, nor a bot's."""
        username = super().clean_username(unicodedata.normalize("NFKC", username), shallow)
        if not shallow:
            validate_username(username)
        return username

    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=False)
        user.display_name = form.cleaned_data.get("display_name", "")
        user.time_zone = form.cleaned_data.get("time_zone") or "UTC"
        # The language the new player is reading the site in (the picker's, else the browser's).
        language = translation.get_language() or ""
        user.language = language if language in dict(settings.LANGUAGES) else "en"
        if commit:
            user.save()
        return user

    def send_mail(self, template_prefix, email, context):
        """In the recipient's language when the address has an account, as the game mails are
        (a reset asked for from a page in another language); else in the page's."""
        language = getattr(context.get("user"), "language", "") or translation.get_language()
        with translation.override(language):
            super().send_mail(template_prefix, email, context)

    def send_notification_mail(self, template_prefix, user, context=None, email=None):
        """A change to the account told to its player (settings.ACCOUNT_EMAIL_NOTIFICATIONS), in
        their language and greeting them by name, as every other account mail."""
        super().send_notification_mail(
            template_prefix, user, {**(context or {}), "user": user}, email
        )

    def reauthenticate(self, user, password) -> bool:
        """Who the player is, before a change such as a new email address: the password, its
        wrong ones limited with the other forms' (passwords.py); never for a player with
        two-factor on, who confirms with it."""
        if twofactor.enabled(user):
            raise self.validation_error("two_factor_asked")
        return password_matches(user=user, password=password)

    def get_reauthentication_methods(self, user) -> list[dict]:
        """How a player confirms who they are before a sensitive change: their password, or,
        with two-factor on, that alone (the password is the factor a thief is likelier to have)."""
        methods = super().get_reauthentication_methods(user)
        if twofactor.enabled(user):
            methods = [method for method in methods if method["id"] != "reauthenticate"]
        return methods

    # Guessing: allauth counts failed logins per key ("login_failed" in
    # settings.ACCOUNT_RATE_LIMITS, consumed before the password is checked, handed back when it
    # was right); per address, the site counts them (refusals.py). allauth's key was what was
    # typed, so five wrong passwords from anywhere locked the owner out too; here the key is what
    # was typed *and the address it came from*, and "login_failed_account" is a higher ceiling
    # for what was typed, from everywhere together.

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        typed = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{typed}@{refusals.address_of(request)}"

    def pre_authenticate(self, request, **credentials):
        typed = self._typed(credentials)
        if not ratelimit.consume(request, action="login_failed_account", key=typed, dry_run=True):
            raise self.validation_error("account_guessed")
        super().pre_authenticate(request, **credentials)

    def authentication_failed(self, request, **credentials):
        # Counted once the password proved wrong, so a right one never counts. Concurrent
        # guesses may each pass the check above before any is counted: a few more than the
        # ceiling, as many as the site hashes at once.
        ratelimit.consume(request, action="login_failed_account", key=self._typed(credentials))
        refusals.count(request, "login_failed")  # the address's own limit (refusals.py)

    @staticmethod
    def _typed(credentials: dict) -> str:
        return credentials.get("email", credentials.get("username", "")).lower()
