import base64
import binascii
import zoneinfo
from urllib.parse import urlsplit

from allauth.account.adapter import get_adapter
from allauth.account.forms import ChangePasswordForm as AllauthChangePasswordForm
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .models import ApiToken, Preferences, User, time_zone_choices
from .names import validate_display_name
from .passwords import password_matches
from .services import PREFERENCE_FIELDS
from .validators import validate_one_line


class LoginForm(AllauthLoginForm):
    """allauth's login, its field named for what it takes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or email")

    def user_credentials(self) -> dict:
        """What was typed, as a username alone. allauth's backend tries a username as an email
        address first, then as a username: one lookup, one password hashed, whatever was typed.
        allauth passes an email address as both `email` and `username`, and the backend checks
        each, so a wrong password cost a registered address two hashes and an unknown one a
        single (dummy) hash: the time a login took told which addresses have an account."""
        credentials = super().user_credentials()
        credentials["username"] = credentials.pop("email", credentials.get("username"))
        return credentials


class ChangePasswordForm(AllauthChangePasswordForm):
    """allauth's, its check of the current password limited with the other forms' (passwords.py)."""

    def clean_oldpassword(self) -> str:
        password = self.cleaned_data.get("oldpassword", "")
        if not password_matches(user=self.user, password=password):
            raise get_adapter().validation_error("enter_current_password")
        return password


class SignupForm(AllauthSignupForm):
    """allauth's sign-up (username, email, password twice) plus the name shown at the table."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        validators=[validate_one_line],
        help_text=_("Shown at the table; your username if you leave it empty."),
    )
    # The browser's zone (static/js/timezone-hint.js fills it), so that deadlines read right from
    # the first page. Not typed by the player, so nothing in it is refused: UTC instead.
    time_zone = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].help_text = _(
            "Where we tell you it is your turn. We send a link to confirm it first; you can "
            "play right away."
        )
        order = ["username", "display_name", "email", "password1", "password2"]
        self.order_fields(order)

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        validate_display_name(name)
        return name

    def clean_time_zone(self) -> str:
        zone = self.cleaned_data["time_zone"]
        return zone if zone in zoneinfo.available_timezones() else "UTC"


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Preferences
        fields = PREFERENCE_FIELDS  # the ones preferences_update takes
        widgets = {"turn_mail": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A form without the field (an older page) keeps the level the player had.
        self.fields["autopilot_level"].required = False

    def clean_autopilot_level(self):
        return self.cleaned_data.get("autopilot_level") or self.instance.autopilot_level


class ProfileForm(forms.ModelForm):
    """Name, time zone and language: what the player is called and how times and (soon) words are
    shown to them."""

    time_zone = forms.TypedChoiceField(
        label=_("Time zone"),
        choices=time_zone_choices,
        help_text=_("Deadlines and times on pages and in emails are shown in this zone."),
    )

    class Meta:
        model = User
        fields = ("display_name", "time_zone", "language", "four_colour_deck")
        help_texts = {
            "display_name": _("Shown at tables and on the leaderboard; empty shows your username."),
            "language": _("For the site and its emails."),
        }

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        validate_display_name(name, user=self.instance)
        return name


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not password_matches(user=self.user, password=password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password


def decoded_length(value: str) -> int:
    """How many bytes a base64url value (padded or not) holds; -1 if it is not base64url."""
    try:
        return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except (binascii.Error, ValueError):
        return -1


class PushEndpointForm(forms.Form):
    """Where a browser takes its push notices: all that turning them off there needs."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")

    def clean_endpoint(self):
        endpoint = self.cleaned_data["endpoint"]
        if not endpoint.startswith("https://"):
            raise forms.ValidationError(_("A push service address starts with https://."))
        return endpoint


class PushSubscriptionForm(PushEndpointForm):
    """What a browser's PushSubscription.toJSON() gives: where to push and the keys to encrypt
    for it (a P-256 point of 65 bytes, a 16-byte secret)."""

    p256dh = forms.CharField(max_length=100)
    auth = forms.CharField(max_length=40)

    def clean_endpoint(self):
        """Only a known push service (settings.PUSH_SERVICE_HOSTS): the worker will POST there."""
        endpoint = super().clean_endpoint()
        host = (urlsplit(endpoint).hostname or "").lower()
        known = settings.PUSH_SERVICE_HOSTS
        if not any(host == name or host.endswith("." + name) for name in known):
            raise forms.ValidationError(_("That is not the address of a known push service."))
        return endpoint

    def clean_p256dh(self):
        return self._key("p256dh", 65)

    def clean_auth(self):
        return self._key("auth", 16)

    def _key(self, name: str, size: int) -> str:
        value = self.cleaned_data[name]
        if decoded_length(value) != size:
            raise forms.ValidationError(_("Not a key of this browser's push subscription."))
        return value


RATE_LIMIT_CODES = ("too_many_login_attempts", "account_guessed", "rate_limited")


def refusal_status(form: forms.Form) -> int:
    """A refused form's status: 429 when it was refused for guessing too fast, else 400."""
    codes = {error.code for errors in form.errors.as_data().values() for error in errors}
    return 429 if codes & set(RATE_LIMIT_CODES) else 400


EXPIRY_CHOICES = [
    ("30", _("in 30 days")),
    ("90", _("in 90 days")),
    ("365", _("in a year")),
    ("never", _("never")),
]


class ApiTokenForm(forms.Form):
    """A new personal access token: for the player or one of their bots (`account`: a choice
    among them, the view's), what it may do, and until when."""

    name = forms.CharField(label=_("Name"), max_length=40, help_text=_("To tell it from others."))
    account = forms.TypedChoiceField(label=_("For"), coerce=int)
    scopes = forms.MultipleChoiceField(
        label=_("It may"),
        choices=ApiToken.Scope.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=["read"],
    )
    expires = forms.ChoiceField(label=_("Expires"), choices=EXPIRY_CHOICES, initial="90")

    def __init__(self, *args, accounts, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["account"].choices = [(a.pk, a.name) for a in accounts]

    def expires_in_days(self) -> int | None:
        value = self.cleaned_data["expires"]
        return None if value == "never" else int(value)


class OwnBotForm(forms.Form):
    username = forms.CharField(
        label=_("Your bot's name"),
        max_length=30,
        help_text=_("Letters, digits and @ . + - _ only. It is shown as a bot wherever it plays."),
    )
