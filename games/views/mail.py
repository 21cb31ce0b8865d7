"""Mail seen from the browser: the one-click unsubscribe from an email, a turn mail's one-click
links, and email previews."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.csp import CSP
from django.utils.translation import gettext as _
from django.views.decorators.csp import csp_override
from django.views.decorators.csrf import csrf_exempt

from ..errors import GameError
from ..mailplay import links
from ..models import Game, Notification
from ..notifications import compose, previews, tokens
from ..notifications.policy import topic_label
from ..presentation import cards_info, sort_hand


@csrf_exempt  # mail clients POST here without a session (RFC 8058); the signed token is the proof
def unsubscribe(request, token):
    """GET: a page with one button (link scanners fetch GETs, so GET never changes anything).
    POST: that button, or a mail client's List-Unsubscribe-Post one-click."""
    found = tokens.unsubscribe_read(token)
    if found is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=404)
    user, topic = found
    context = {"token": token, "person": user, "topic": topic_label(topic)}
    if request.method == "POST":
        tokens.unsubscribe(token=token)
        context["done"] = True
    return render(request, "accounts/unsubscribe.html", context)


def mail_turn(request, token):
    """A turn mail's one-click link (games/mailplay/links.py). GET: what it would do, with its
    button; POST: that button plays it. No login: the signed token is the proof, for its turn
    only. After a draw the page offers the discards, each a button of its own."""
    try:
        link = links.link_read(token)
    except GameError as error:
        return render(request, "games/mail_turn.html", {"error": error.message}, status=404)
    # In the language of the mail it came from, whatever the browser that opens it (logged out).
    with translation.override(link.seat.user.language or settings.LANGUAGE_CODE):
        return _mail_turn_page(request, token, link)


def _mail_turn_page(request, token, link):
    view = links.link_view(link)
    context = {"link": link, "token": token, "words": links.link_words(link, view)}
    status = 200
    current = link.game.status == Game.Status.ACTIVE and link.game.version == link.ref.version
    if request.method == "POST":
        try:
            link = links.link_play(token=token)
            context["played"], current = True, True
            view = links.link_view(link)
        except GameError as error:
            context["error"], status, current = error.message, error.status, False
    elif not current:
        context["error"], status = _("This link's turn is over: the game has moved on."), 409
    if current and view.my_turn and link.game.status == Game.Status.ACTIVE:
        context["hand"] = cards_info(
            sort_hand(view.hand or (), link.seat, view.wild_rank, view.round_index)
        )
        if view.phase == "discard":
            context["next_links"] = compose.turn_links(link.game, link.seat, view)
    return render(request, "games/mail_turn.html", context, status=status)


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
    context = previews.sample_context(kind, request.user)
    subject, text, html = compose.render_email(kind, context)
    if request.GET.get("format") == "text":
        body = f"Subject: {subject}\n\n{text}"
        return HttpResponse(body, content_type="text/plain; charset=utf-8")
    return HttpResponse(html)
