"""Two-factor authentication (django-allauth's mfa app): an authenticator app (TOTP) with
recovery codes, and passkeys (WebAuthn), under Settings → Two-factor authentication
(/accounts/2fa/).

- At login, allauth asks for a code (or the passkey) after the password; a passkey may also log
  in alone, from the login page's button.
- Before a sensitive change a player who has turned it on confirms with it instead of their
  password (accounts/adapter.py, the reauthentication methods): a changed email address or
  password, a new API token or bot, deleting the account, and the two-factor settings
  themselves. One confirmation lasts allauth's reauthentication timeout (5 minutes).
- Wrong codes are limited as wrong passwords are (settings.ACCOUNT_RATE_LIMITS, "code_failed"):
  per account and address, with a higher ceiling for the account from every address together,
  and per address; so guessing six digits stays slow, and whoever has the password cannot lock
  the owner out from one address.
- The API's tokens stand apart: a request made with one is not asked for a code (they are made
  behind the code, and can be revoked)."""

from allauth.account.decorators import reauthentication_required
from allauth.core import context, ratelimit
from allauth.mfa.adapter import get_adapter
from allauth.mfa.base import forms as mfa_forms
from allauth.mfa.base.views import ReauthenticateView
from allauth.mfa.models import Authenticator
from allauth.mfa.utils import is_mfa_enabled
from allauth.mfa.webauthn import forms as webauthn_forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from . import refusals

TOO_MANY_CODES = _(
    "Too many wrong codes lately: wait a few minutes before you try again. Lost the device? "
    "Type one of your recovery codes instead."
)
CODES_GUESSED = _(
    "Too many wrong codes for this account lately, from several places: someone who has your "
    "password may be guessing its codes. Wait an hour, then log in and change your password."
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
    """The code checked under the site's limits, not allauth's: allauth counts wrong codes per
    account alone, so five typed by whoever had the password, from anywhere, refused the
    owner's right code everywhere for up to an hour. As for the password (adapter.py), they
    are counted per account and address ("code_failed", reserved before the code is checked,
    forgotten once a right one comes from there), against a ceiling for the account from every
    address together that no address reaches alone ("code_failed_account"), and per address
    ("code_failed_address"). The check itself is allauth's: each authenticator's code."""

    user: object
    authenticator: Authenticator

    def clean_code(self) -> str:
        request = context.request
        account = f"code:{self.user.pk}"  # type: ignore[attr-defined]
        here = f"{account}@{refusals.address_of(request)}"
        if not ratelimit.consume(request, action="code_failed_account", key=account, dry_run=True):
            raise ValidationError(CODES_GUESSED, code="rate_limited")
        if not (
            ratelimit.consume(request, action="code_failed_address", dry_run=True)
            and ratelimit.consume(request, action="code_failed", key=here)
        ):
            raise ValidationError(TOO_MANY_CODES, code="rate_limited")
        code = self.cleaned_data["code"]  # type: ignore[attr-defined]
        authenticators = Authenticator.objects.filter(user=self.user).exclude(
            type=Authenticator.Type.WEBAUTHN  # a passkey has no code to type
        )
        for authenticator in authenticators:
            if authenticator.wrap().validate_code(code):
                authenticator.user = self.user
                self.authenticator = authenticator
                ratelimit.clear(request, action="code_failed", key=here)
                return code
        ratelimit.consume(request, action="code_failed_account", key=account)
        ratelimit.consume(request, action="code_failed_address")
        main = max(authenticators, key=lambda a: a.type == Authenticator.Type.TOTP, default=None)
        if main is not None:  # allauth's signal, for the app's authenticator as allauth sends it
            self._emit_authentication_failed(main)  # type: ignore[attr-defined]
        raise get_adapter().validation_error("incorrect_code")


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
