from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from games import deadlines
from games.services import GameError

from .forms import PreferencesForm, SignupForm, VacationEndForm, VacationForm
from .selectors import preferences_of
from .services import preferences_update


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
    form = PreferencesForm(request.POST or None, instance=preferences_of(request.user))
    if request.method == "POST":
        if form.is_valid():
            preferences_update(user=request.user, **form.cleaned_data)
            messages.success(request, _("Your email preferences are saved."))
            return redirect("notification_preferences")
        return render(request, "accounts/preferences.html", {"form": form}, status=400)
    return render(request, "accounts/preferences.html", {"form": form})


@login_required
def vacation(request):
    """Book days off (the clocks of your turns stand still), or end a vacation."""
    action = request.POST.get("action")
    form = VacationForm(request.POST if action == "book" else None)
    status, error = 200, None
    if request.method == "POST":
        try:
            if action == "end":
                ending = VacationEndForm(request.POST)
                if not ending.is_valid():
                    raise GameError(_("There is no such vacation to end."), status=404)
                deadlines.vacation_end(user=request.user, **ending.cleaned_data)
                messages.success(request, _("Your vacation is over; your clocks run again."))
                return redirect("vacation")
            if form.is_valid():
                deadlines.vacation_book(user=request.user, **form.cleaned_data)
                messages.success(request, _("Vacation booked: your clocks stand still then."))
                return redirect("vacation")
            status = 400
        except GameError as failure:
            status, error = failure.status, failure.message
    context = {"form": form, "error": error, **deadlines.vacation_overview(request.user)}
    return render(request, "accounts/vacation.html", context, status=status)
