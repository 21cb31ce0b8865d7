from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Preferences
from .validators import validate_one_line


class LoginForm(AllauthLoginForm):
    """allauth's login, its field named for what it takes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or email")


class SignupForm(AllauthSignupForm):
    """allauth's sign-up (username, email, password twice) plus the name shown at the table."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        validators=[validate_one_line],
        help_text=_("Shown at the table; your username if you leave it empty."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].help_text = _(
            "Where we tell you it is your turn. We send a link to confirm it first; you can "
            "play right away."
        )
        order = ["username", "display_name", "email", "password1", "password2"]
        self.order_fields(order)


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Preferences
        fields = (
            "turn_mail",
            "turn_mail_while_watching",
            "reminders",
            "invitations",
            "game_over",
            "profile_hidden",
        )
        widgets = {"turn_mail": forms.RadioSelect}
