"""The moderation queue's pages (games/moderation.py), for staff with the permission
`games.moderate`: the players with open reports, each player's case (reported messages in their
context, reports, measures taken) with the form that takes a measure; and, for every player,
"Report this player" on a player's page."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User

from .. import moderation
from ..errors import GameError
from ..models import PLAYER_REPORT_NOTE_MAX_LENGTH, ModerationAction, PlayerReport
from ..ratelimit import rate_limit_consume
from .players import player_or_404


class PlayerReportForm(forms.Form):
    reason = forms.ChoiceField(label=gettext_lazy("Why"), choices=PlayerReport.Reason.choices)
    note = forms.CharField(
        label=gettext_lazy("What happened (optional)"),
        required=False,
        max_length=PLAYER_REPORT_NOTE_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class MeasureForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Measure"), choices=ModerationAction.Kind.choices)
    reason = forms.CharField(
        label=gettext_lazy("Why (the player is told)"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    days = forms.IntegerField(
        label=gettext_lazy("Days (a mute or a suspension)"),
        required=False,
        min_value=1,
        max_value=moderation.MAX_DAYS,
    )
    message = forms.IntegerField(required=False, widget=forms.HiddenInput)


@require_POST
@login_required
def player_report(request, username: str):
    """A player's page → Report this player: the staff read it in their queue."""
    player = player_or_404(username)
    form = PlayerReportForm(request.POST)
    if not form.is_valid():
        context = {"error": _("Choose a reason from the list; a note has at most 500 characters.")}
        return render(request, "games/error.html", context, status=400)
    try:
        rate_limit_consume(user=request.user, action="chat", scope="report")  # a note to the staff
        moderation.player_report(
            reporter=request.user,
            player=player,
            reason=form.cleaned_data["reason"],
            note=form.cleaned_data["note"],
        )
    except GameError as error:
        return render(request, "games/error.html", {"error": error.message}, status=error.status)
    messages.success(request, _("Thank you: the moderators will look into it."))
    return redirect("player", username=player.username)


@login_required
@require_http_methods(["GET", "HEAD"])
def moderation_queue(request):
    rows = moderation.queue(staff=request.user)
    return render(request, "games/moderation/queue.html", {"rows": rows})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def moderation_case(request, username: str):
    """A player's case, and (POST) a measure against them."""
    moderation.require_moderator(request.user)
    player = player_or_404(username, User.objects.all())
    form = MeasureForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                action = moderation.act(
                    staff=request.user,
                    player=player,
                    kind=data["kind"],
                    reason=data["reason"],
                    days=data["days"],
                    message_id=data["message"],
                )
            except GameError as error:
                form.add_error(None, error.message)
                status = error.status
            else:
                messages.success(
                    request,
                    _("Done: %(measure)s. The measure is logged.")
                    % {"measure": action.get_kind_display()},
                )
                # Back to the case while it is open (after a warning, say), else to the queue.
                if moderation.has_open_reports(player):
                    return redirect("moderation_case", username=player.username)
                return redirect("moderation_queue")
    context = {**moderation.case(staff=request.user, player=player), "form": form}
    return render(request, "games/moderation/case.html", context, status=status)
