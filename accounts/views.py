from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from .forms import PreferencesForm, ProfileForm, SignupForm
from .models import User
from .selectors import preferences_of
from .services import preferences_update, profile_update


def _next_url(request) -> str:
    """Where to go after signing up: the page that sent the visitor here, if it is ours."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else reverse("home")


def signup(request):
    if request.user.is_authenticated:
        return redirect(_next_url(request))
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s!") % {"name": user.name})
            if not user.email:
                messages.warning(
                    request,
                    _("You gave no email address, so no email will tell you when it is your turn."),
                )
            return redirect(_next_url(request))
        status = 400
    else:
        status = 200
    context = {"form": form, "next": request.POST.get("next") or request.GET.get("next", "")}
    return render(request, "accounts/signup.html", context, status=status)


@login_required
def notification_preferences(request):
    """The settings page: two forms, the profile (name, time zone, language) and the email
    preferences; the POST says which one it saves (`section`)."""
    user = request.user
    section = request.POST.get("section", "preferences") if request.method == "POST" else None
    # The profile form works on a copy: a refused change must not show in the page's header.
    profile = User.objects.get(pk=user.pk)
    forms = {
        "profile": ProfileForm(request.POST if section == "profile" else None, instance=profile),
        "preferences": PreferencesForm(
            request.POST if section == "preferences" else None, instance=preferences_of(user)
        ),
    }
    save = {"profile": profile_update, "preferences": preferences_update}
    status = 200
    if section in forms:
        form = forms[section]
        if form.is_valid():
            save[section](user=user, **form.cleaned_data)
            messages.success(request, _("Your settings are saved."))
            return redirect("notification_preferences")
        status = 400
    context = {"form": forms["preferences"], "profile_form": forms["profile"]}
    return render(request, "accounts/preferences.html", context, status=status)
