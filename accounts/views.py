from allauth.account import views as allauth_views
from allauth.account.decorators import secure_admin_login
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from . import sessions, twofactor
from .api_tokens import accounts_of, token_create, token_revoke
from .forms import (
    ApiTokenForm,
    OwnBotForm,
    PreferencesForm,
    ProfileForm,
    PushEndpointForm,
    PushSubscriptionForm,
)
from .models import ApiToken, PushSubscription, User
from .names import NAME_TAKEN, name_taken
from .selectors import preferences_of
from .services import (
    own_bot_create,
    preferences_update,
    profile_update,
    push_subscription_delete,
    push_subscription_save,
)


def language_set(request):
    """The footer's language picker: Django's set_language (a cookie, for visitors), and for a
    signed-in player their stored language too, which their pages and mails follow."""
    code = request.POST.get("language", "")
    known = code in dict(settings.LANGUAGES)
    if request.method == "POST" and request.user.is_authenticated and known:
        profile_update(user=request.user, language=code)
    return set_language(request)


@login_required
@require_POST
def table_tour_done(request):
    """The table's first-visit tour, dismissed for good; htmx removes it in place."""
    profile_update(user=request.user, table_tour_done=True)
    if request.htmx:
        return HttpResponse("")
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()})
    # An address, never a URL name: redirect() would take "home" or "x" for one (and fail).
    return HttpResponseRedirect(target) if safe and target else redirect("home")


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
            try:
                save[section](user=user, **form.cleaned_data)
            except ValidationError as refused:  # a name another player took since the form looked
                form.add_error(None, refused)
            else:
                # The page was read in the language the player had; a new one is theirs from now
                # on, this message included (the next page is in it).
                translation.activate(user.language or settings.LANGUAGE_CODE)
                messages.success(request, _("Your settings are saved."))
                return redirect("notification_preferences")
        status = 400
    context = {
        "form": forms["preferences"],
        "profile_form": forms["profile"],
        # Push needs the site's VAPID key pair (settings); without it the page offers none.
        "vapid_public_key": settings.VAPID_PUBLIC_KEY if settings.VAPID_PRIVATE_KEY else "",
        "push_devices": PushSubscription.objects.filter(user=user).count(),
    }
    return render(request, "accounts/preferences.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def signed_in(request):
    """Settings → where you are signed in: each session's device, address, start and last use;
    a POST signs out everywhere else (accounts/sessions.py)."""
    if request.method == "POST":
        ended = sessions.sign_out_elsewhere(request)
        messages.success(
            request,
            ngettext(
                "You are logged out of %(count)d other session; this one stays logged in.",
                "You are logged out of %(count)d other sessions; this one stays logged in.",
                ended,
            )
            % {"count": ended}
            if ended
            else _("You are logged out everywhere else; this one stays logged in."),
        )
        return redirect("usersessions_list")
    return render(request, "accounts/sessions.html", {"sessions": sessions.signed_in(request)})


@login_required
@twofactor.confirmed
def api_access(request):
    """Settings → API: the player's personal access tokens and their bots' (made, shown once,
    revoked), and their own bots (docs/api.md). The POST says what it does (`section`)."""
    user = request.user
    if user.is_bot:
        return redirect("home")
    accounts = list(accounts_of(user).order_by("pk"))
    section = request.POST.get("section") if request.method == "POST" else None
    token_form = ApiTokenForm(request.POST if section == "token" else None, accounts=accounts)
    bot_form = OwnBotForm(request.POST if section == "bot" else None)
    new_token, status = None, 200
    if request.method == "POST" and section not in ("revoke", "token", "bot"):
        status = 400
    if section == "revoke":
        token_id = request.POST.get("token", "")
        if token_id.isdigit() and token_revoke(owner=user, token_id=int(token_id)):
            messages.success(request, _("The token is revoked: it opens nothing any more."))
        return redirect("api_access")
    if section == "token":
        status = 400
        if token_form.is_valid():
            data = token_form.cleaned_data
            account = next(a for a in accounts if a.pk == data["account"])
            try:
                _row, new_token = token_create(
                    user=account,
                    name=data["name"],
                    scopes=set(data["scopes"]),
                    expires_in_days=token_form.expires_in_days(),
                )
            except ValidationError as refused:
                token_form.add_error(None, refused)
            else:
                status, token_form = 200, ApiTokenForm(accounts=accounts)
    if section == "bot":
        status = 400
        if bot_form.is_valid():
            try:
                bot = own_bot_create(owner=user, username=bot_form.cleaned_data["username"])
            except ValidationError as refused:
                bot_form.add_error("username", refused)
            else:
                messages.success(
                    request, _("%(bot)s is yours: make it a token to play.") % {"bot": bot.name}
                )
                return redirect("api_access")
    tokens = ApiToken.objects.filter(user__in=accounts, revoked_at=None).select_related("user")
    context = {
        "token_form": token_form,
        "bot_form": bot_form,
        "new_token": new_token,
        "tokens": tokens,
        "bots": [a for a in accounts if a.pk != user.pk],
    }
    response = render(request, "accounts/api.html", context, status=status)
    if new_token:
        response["Cache-Control"] = "no-store"  # the token, shown once, is kept by no cache
    return response


@login_required
@require_POST
def push_subscribe(request):
    """static/js/push.js: this browser takes the player's push notices (its subscription's
    endpoint and keys, form-encoded). 204, or 400 with what was wrong."""
    form = PushSubscriptionForm(request.POST)
    if not settings.VAPID_PRIVATE_KEY:
        return JsonResponse({"error": _("This site sends no push notices.")}, status=400)
    if not form.is_valid():
        return JsonResponse({"errors": form.errors}, status=400)
    push_subscription_save(user=request.user, **form.cleaned_data)
    return HttpResponse(status=204)


@login_required
@require_POST
def push_unsubscribe(request):
    """static/js/push.js: no more notices to this browser (only the player's own endpoint).
    204, or 400 when what came is no endpoint at all."""
    form = PushEndpointForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"errors": form.errors}, status=400)
    push_subscription_delete(user=request.user, endpoint=form.cleaned_data["endpoint"])
    return HttpResponse(status=204)


@secure_admin_login
def admin_login(request, extra_context=None):
    """The admin's login is the site's: allauth's secure_admin_login sends a visitor to the site's
    login (rate-limited: a guess past its limits is refused before any password is hashed) and
    back here after it, and refuses a signed-in player who is not staff (403). Staff go in; the
    admin's own login form, which checked every password posted to it, is never shown."""
    return redirect("admin:index")


def admin_password_change(request, extra_context=None):
    """The admin's password change is the site's, whose check of the old password is limited."""
    return redirect("account_change_password")


class SignupView(allauth_views.SignupView):
    """allauth's sign-up. When another account took the name between the form's check and the save
    (two sign-ups of one name at once), the form answers that the name is taken (400) instead of
    failing: the database's unique constraints are the last word."""

    def form_valid(self, form):
        try:
            with transaction.atomic():
                return super().form_valid(form)
        except IntegrityError:
            shown = form.cleaned_data.get("display_name")
            form.add_error(
                "display_name" if shown and name_taken(shown) else "username", NAME_TAKEN
            )
            return self.form_invalid(form)
