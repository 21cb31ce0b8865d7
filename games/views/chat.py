"""A game's chat: the page with the whole chat (it works without JavaScript), writing a message,
muting a player, reporting a message, and the host's switch for spectators. With HTMX each
answers the chat's fragment; without, a redirect back to the table (or the page with the
refusal)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from accounts.selectors import player_named

from .. import chat as chat_services
from ..errors import GameError
from ..models import ChatMessage, Game
from ..ratelimit import rate_limit_consume
from ..selectors import chat as chat_selectors
from ..selectors.viewer import can_chat
from .play import login_first, to_login, viewable_game


def _chat_context(request, game, seat, *, limit, error=None) -> dict:
    chat = chat_selectors.chat(game, seat, request.user, limit=limit)
    return {
        "game": game, "me": seat, "chat": chat, "chat_error": error, "post_error": None,
        "actions": True,
    }  # fmt: skip


def _answer(
    request,
    game,
    seat,
    *,
    error: GameError | None = None,
    text: str | None = None,
    posted=False,
    done: str | None = None,
):
    """After a chat action: the chat fragment (HTMX), or back to the table. A refusal shows on
    the chat page (or in the fragment) with its status; a refused message shows in its form,
    with what was typed (HTMX puts that form in the place of the one on the page). A message
    `posted` brings a clean form too, so that an earlier refusal does not stay under it. What
    the action `done` says (a report's thanks) shows in the fragment, or on the table."""
    if error is None and not request.htmx:
        if done:
            messages.success(request, done)
        return redirect(reverse("game", kwargs={"game_id": game.pk}) + "#chat")
    status = error.status if error else 200
    message = error.message if error else None
    limit = chat_selectors.TABLE_CHAT_MESSAGES if request.htmx else None
    context = _chat_context(request, game, seat, limit=limit, error=message)
    context["chat_done"] = done
    if text is not None and error is not None:
        # Shown by the form (or, with no chat to show, where the chat would be).
        context.update(chat_error=None if context["chat"] else message, post_error=message)
        context["text"] = text
        if request.htmx:
            response = render(request, "games/_chat.html#form", context, status=status)
            return reswap(retarget(response, "#chat-form"), "outerHTML")
    template = "games/_chat.html#chat" if request.htmx else "games/chat.html"
    if request.htmx and posted:
        template = "games/_chat.html#posted"
    return render(request, template, context, status=status)


def game_chat(request, game_id):
    """The whole chat of a game, for the players (and spectators, if the host opened it)."""
    if login := login_first(request, game_id):
        return login
    game, seat = viewable_game(request, game_id)
    if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED):
        return redirect("game", game_id=game_id)
    if not can_chat(game, seat):
        error = _("This game's chat is for its players.")
        return render(request, "games/chat.html", {"game": game, "chat_error": error}, status=403)
    return render(request, "games/chat.html", _chat_context(request, game, seat, limit=None))


def _chat_action(action):
    """A POST on the chat of a game the player may look at (else 404), running `action(request,
    game, seat)`, which may refuse with a GameError, and may say what it did."""

    @require_POST
    def view(request, game_id, **kwargs):
        if not request.user.is_authenticated:
            return to_login(request, reverse("game", kwargs={"game_id": game_id}))
        game, seat = viewable_game(request, game_id)
        text = request.POST.get("text", "")[:2000] if action is _post else None
        try:
            done = action(request, game, seat, **kwargs)
        except GameError as error:
            game.refresh_from_db()
            return _answer(request, game, seat, error=error, text=text)
        game.refresh_from_db()
        return _answer(request, game, seat, posted=action is _post, done=done)

    return view


def _post(request, game, seat):
    text = request.POST.get("text", "")[:2000]
    rate_limit_consume(user=request.user, action="chat", scope=str(game.pk))
    chat_services.chat_post(game_id=game.pk, user=request.user, text=text)


def _readable(game, seat) -> None:
    if not can_chat(game, seat):
        raise GameError(_("This game's chat is for its players."), status=403)


def _mute(request, game, seat):
    _readable(game, seat)
    other = player_named(request.POST.get("player", "")[:150])
    if other is None:
        raise GameError(_("There is no such player."), status=404)
    if request.POST.get("mute") == "off":
        chat_services.user_unmute(user=request.user, other=other)
    else:
        chat_services.user_mute(user=request.user, other=other)


def _report(request, game, seat, message_id):
    _readable(game, seat)
    message = ChatMessage.objects.filter(game=game, pk=message_id).first()
    if message is None:
        raise Http404(_("There is no such message."))
    chat_services.chat_report(message=message, user=request.user)
    return _("Thank you: the moderators will look into it.")


def _spectators(request, game, seat):
    open_to_them = request.POST.get("open") == "1"
    chat_services.game_set_chat_spectators(
        game_id=game.pk, user=request.user, open_to_them=open_to_them
    )


chat_post = _chat_action(_post)
chat_mute = _chat_action(_mute)
chat_report = _chat_action(_report)
chat_spectators = _chat_action(_spectators)
