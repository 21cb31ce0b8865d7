"""Views for what happens between visits: the one-click unsubscribe from an email, email previews
in the browser, invitations (sending, accepting, declining), rematches, and coming back from
autopilot."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.csp import CSP
from django.utils.translation import gettext as _
from django.views.decorators.csp import csp_override
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from . import deadlines, invitations, notifications, selectors
from .models import Notification
from .services import GameError


@csrf_exempt  # mail clients POST here without a session (RFC 8058); the signed token is the proof
def unsubscribe(request, token):
    """GET: a page with one button (link scanners fetch GETs, so GET never changes anything).
    POST: that button, or a mail client's List-Unsubscribe-Post one-click."""
    found = notifications.unsubscribe_read(token)
    if found is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=404)
    user, topic = found
    context = {"token": token, "person": user, "topic": notifications.topic_label(topic)}
    if request.method == "POST":
        notifications.unsubscribe(token=token)
        context["done"] = True
    return render(request, "accounts/unsubscribe.html", context)


def _may_preview(request) -> None:
    if not (settings.DEBUG or (request.user.is_authenticated and request.user.is_staff)):
        raise Http404(_("There is no such page."))


@login_required
def mail_preview_index(request):
    _may_preview(request)
    return render(request, "emails/preview_index.html", {"kinds": Notification.Kind.choices})


# The HTML of an email styles itself inline, as mail clients need; allow that on this page only.
@csp_override({**settings.SECURE_CSP, "style-src": [CSP.SELF, CSP.UNSAFE_INLINE]})
@login_required
def mail_preview(request, kind):
    """One kind of email, rendered from its templates with made-up data: HTML, or ?format=text."""
    _may_preview(request)
    if kind not in Notification.Kind.values:
        raise Http404(_("There is no such kind of email."))
    context = notifications.sample_context(kind, request.user)
    subject, text, html = notifications.render_email(kind, context)
    if request.GET.get("format") == "text":
        body = f"Subject: {subject}\n\n{text}"
        return HttpResponse(body, content_type="text/plain; charset=utf-8")
    return HttpResponse(html)


@require_POST
@login_required
def game_invite(request, game_id):
    try:
        who = request.POST.get("who", "")
        invitations.game_invite(game_id=game_id, user=request.user, who=who)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _(
                "Invitation sent to “%(who)s”. If they play here, it waits on their page of "
                "games (and in their mail, if they take invitations by mail)."
            )
            % {"who": who.strip()[:60]},
        )
    return redirect("game", game_id=game_id)


def _dashboard_refusing(request, error: GameError):
    """The dashboard again, with the reason, under the error's 4xx status."""
    messages.error(request, error.message)
    context = selectors.dashboard(request.user, page=request.GET.get("page"))
    return render(request, "games/dashboard.html", context, status=error.status)


@require_POST
@login_required
def invitation_accept(request, invitation_id):
    try:
        seat = invitations.invitation_accept(invitation_id=invitation_id, user=request.user)
    except GameError as error:
        return _dashboard_refusing(request, error)
    messages.success(request, _("You have a seat at this game."))
    return redirect("game", game_id=seat.game_id)


@require_POST
@login_required
def invitation_decline(request, invitation_id):
    try:
        invitations.invitation_decline(invitation_id=invitation_id, user=request.user)
    except GameError as error:
        return _dashboard_refusing(request, error)
    messages.success(request, _("Invitation declined."))
    return redirect("home")


@require_POST
@login_required
def game_rematch(request, game_id):
    try:
        game = invitations.game_rematch(game_id=game_id, user=request.user)
    except GameError as error:
        return _dashboard_refusing(request, error)
    return redirect("game", game_id=game.pk)


@require_POST
@login_required
def seat_resume(request, game_id):
    try:
        deadlines.seat_resume(game_id=game_id, user=request.user)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Welcome back: the seat is yours again."))
    return redirect("game", game_id=game_id)
