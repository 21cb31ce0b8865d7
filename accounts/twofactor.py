"""Two-factor authentication (django-allauth's mfa app): an authenticator app (TOTP) with
recovery codes, and passkeys (WebAuthn), under Settings → Two-factor authentication
(/accounts/2fa/).

- At login, allauth asks for a code (or the passkey) after the password; a passkey may also log
  in alone, from the login page's button.
- Before a sensitive change a player who has turned it on confirms with it instead of their
  password (accounts/adapter.py, the reauthentication methods): a changed email address or
  password, a new API token or bot, deleting the account, and the two-factor settings
  themselves. One confirmation lasts allauth's reauthentication timeout (5 minutes).
- A wrong code counts against the account as a wrong password does (allauth's "login_failed"
  rate limit, keyed by the account): guessing six digits stays slow.
- The API's tokens stand apart: a request made with one is not asked for a code (they are made
  behind the code, and can be revoked)."""

from allauth.account.decorators import reauthentication_required
from allauth.mfa.base import forms as mfa_forms
from allauth.mfa.base.views import ReauthenticateView
from allauth.mfa.utils import is_mfa_enabled
from allauth.mfa.webauthn import forms as webauthn_forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

TOO_MANY_CODES = _(
    "Too many wrong codes lately: wait a few minutes before you try again. Lost the device? "
    "Type one of your recovery codes instead."
)


def enabled(user) -> bool:
    """Whether `user` has turned two-factor on (an authenticator app or a passkey)."""
    return user.is_authenticated and is_mfa_enabled(user)


def _asked(request) -> bool:
    return enabled(request.user)


# A view (its page and its POSTs) that waits for the code when the player has two-factor on and
# has not confirmed it in the last few minutes: a password typed into its form is then never held
# in the session while the code is asked. Without two-factor, the view's own form asks for the
# password where it does.
confirmed = reauthentication_required(enabled=_asked)


class _CodeGuesses:
    """allauth refuses a code past the account's "login_failed" limit with the login form's
    message (about this address and a reset link); the code's own says what helps."""

    def clean_code(self) -> str:
        try:
            return super().clean_code()  # type: ignore[misc]
        except ValidationError as refused:
            if refused.code == "too_many_login_attempts":
                raise ValidationError(TOO_MANY_CODES, code="rate_limited") from None
            raise


class AuthenticateForm(_CodeGuesses, mfa_forms.AuthenticateForm):
    """The code asked at login, after the password (settings.MFA_FORMS)."""


class ReauthenticateForm(_CodeGuesses, mfa_forms.ReauthenticateForm):
    """The code asked before a sensitive change."""


reauthenticate = ReauthenticateView.as_view(form_class=ReauthenticateForm)


class AddPasskeyForm(webauthn_forms.AddWebAuthnForm):
    """A new passkey or security key (settings.MFA_FORMS), its name's label in the page's
    language (allauth leaves the field to Django's, which is English)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].label = _("Name")
