"""The table's stream of its game's changes (games/events.py): server-sent events, so that a
table hears a move within a moment instead of polling for it. Who may open it is who may watch
the table; it carries no card, only "changed", and the table then asks as its poll would."""

from allauth.account.adapter import get_adapter
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from ..errors import GameError
from ..events import event_stream, look_then_release
from ..models import Game
from ..notifications.presence import seat_record_presence
from ..selectors import viewer
from .play import invite_of


@never_cache
@require_GET
async def table_events(request, game_id):
    def watchable():  # the session and user read here too, not in the stream
        game, seat = viewer.watched(
            game_id, request.user, invite_of(request, game_id), read=viewer.game_for_poll
        )
        user = request.user
        who = f"user:{user.pk}" if user.is_authenticated else f"address:{client_address(request)}"
        return game, seat, who

    game, seat, who = await look_then_release(watchable)
    # 204 tells the browser not to reconnect: nothing more will happen, or (served by WSGI)
    # there is no stream here, and the table polls.
    if game.status != Game.Status.ACTIVE or not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)

    async def presence():  # the page closes its stream while hidden
        if seat is not None:
            await look_then_release(seat_record_presence, seat=seat)

    try:
        return await event_stream(game_id, viewer=who, on_tick=presence)
    except GameError as refused:  # too many open: the table polls instead
        return HttpResponse(refused.message, status=refused.status, content_type="text/plain")


def client_address(request) -> str:
    """The client's address as the rate limits count it (behind the proxies
    ALLAUTH_TRUSTED_PROXY_COUNT trusts)."""
    try:
        return get_adapter().get_client_ip(request)
    except PermissionDenied:  # no address to key by: one count for all such
        return "unknown"
