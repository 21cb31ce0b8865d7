"""Mail seen from the browser: the one-click unsubscribe from an email, and email previews."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.csp import CSP
from django.utils.translation import gettext as _
from django.views.decorators.csp import csp_override
from django.views.decorators.csrf import csrf_exempt

from ..models import Notification
from ..notifications import compose, previews, tokens
from ..notifications.policy import topic_label


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
