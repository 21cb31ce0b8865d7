from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import User


class SignupForm(UserCreationForm):
    display_name = forms.CharField(label=_("Display name"), max_length=40, required=False)
    email = forms.EmailField(
        label=_("Email"), required=False, help_text=_("Where we tell you it is your turn.")
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")
