from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import Preferences, User
from .validators import validate_one_line


class SignupForm(UserCreationForm):
    display_name = forms.CharField(
        label=_("Display name"), max_length=40, required=False, validators=[validate_one_line]
    )
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_(
            "Where we tell you it is your turn. Without one, no email will tell you when it is "
            "your turn."
        ),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")


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
            "autopilot_level",
        )
        widgets = {"turn_mail": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A form without the field (an older page) keeps the level the player had.
        self.fields["autopilot_level"].required = False

    def clean_autopilot_level(self):
        return self.cleaned_data.get("autopilot_level") or self.instance.autopilot_level
