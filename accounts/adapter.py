"""How django-allauth fits this site: the display name chosen at sign-up is saved with the account.
(Refused forms answer 400, and 429 while guessing is rate-limited: accounts/middleware.py.)"""

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.utils import translation


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=False)
        user.display_name = form.cleaned_data.get("display_name", "")
        # The language the new player is reading the site in (the picker's, else the browser's).
        language = translation.get_language() or ""
        user.language = language if language in dict(settings.LANGUAGES) else "en"
        if commit:
            user.save()
        return user
