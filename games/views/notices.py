"""The notice centre: what happened in the player's games since they last looked (the bar links
it with the count of what is new)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from accounts.services import notices_mark_seen

from ..selectors.notices import notices


@require_GET
@login_required
def notice_centre(request):
    now = timezone.now()
    context = notices(request.user, now)
    notices_mark_seen(user=request.user, at=now)  # the bar's count is 0 on this very page
    # Everything is seen now: the bar needs no count (nor its query) on this page.
    return render(request, "games/notices.html", {**context, "notice_count": 0})
