from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games import deadlines
from games.services import GameError

from .forms import PreferencesForm, SignupForm, VacationForm
from .selectors import preferences_of
from .services import preferences_update


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
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
            return redirect("home")
        status = 400
    else:
        status = 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)


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
    form = VacationForm(request.POST if request.POST.get("action") == "book" else None)
    status = 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "end":
                vacation_id = request.POST.get("vacation", "")
                deadlines.vacation_end(
                    user=request.user, vacation_id=int(vacation_id) if vacation_id.isdigit() else 0
                )
                messages.success(request, _("Your vacation is over; your clocks run again."))
                return redirect("vacation")
            if form.is_valid():
                deadlines.vacation_book(user=request.user, **form.cleaned_data)
                messages.success(request, _("Vacation booked: your clocks stand still then."))
                return redirect("vacation")
        except GameError as error:
            form.add_error(None, error.message)
        status = 400
    context = {"form": form, **deadlines.vacation_overview(request.user)}
    return render(request, "accounts/vacation.html", context, status=status)
