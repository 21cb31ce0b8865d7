from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from .forms import PreferencesForm
from .selectors import preferences_of
from .services import preferences_update


@login_required
def notification_preferences(request):
    form = PreferencesForm(request.POST or None, instance=preferences_of(request.user))
    if request.method == "POST":
        if form.is_valid():
            preferences_update(user=request.user, **form.cleaned_data)
            messages.success(request, _("Your settings are saved."))
            return redirect("notification_preferences")
        return render(request, "accounts/preferences.html", {"form": form}, status=400)
    return render(request, "accounts/preferences.html", {"form": form})
