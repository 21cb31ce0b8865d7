"""The player's own account seen from the games: downloading everything the site holds about
them, and deleting the account (games/departure.py). Here, not in accounts, because both need
the games; the addresses stay under /accounts/."""

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.forms import AccountDeleteForm, refusal_status
from accounts.twofactor import confirmed

from ..departure import account_delete
from ..selectors.export import player_data


@require_GET
@login_required
def account_data(request):
    user = request.user
    body = json.dumps(player_data(user), cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="threethirteen-{user.username}.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@confirmed
def account_delete_confirm(request):
    """A page that asks for the password; only its POST deletes."""
    form = AccountDeleteForm(request.POST or None, user=request.user)
    if request.method == "POST":
        if form.is_valid():
            account_delete(user=request.user)
            logout(request)
            messages.success(
                request, _("Your account is deleted. Goodbye, and thank you for playing.")
            )
            return redirect("home")
        return render(request, "accounts/delete.html", {"form": form}, status=refusal_status(form))
    return render(request, "accounts/delete.html", {"form": form})
