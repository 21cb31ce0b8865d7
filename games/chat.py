"""Writes for a game's chat: a message, a mute, a report, and the host's switch that opens the
chat to spectators. Who may read and write is games.selectors.viewer.can_chat; the view has
already checked that the writer may look at the game at all (else 404)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.validators import one_line
from accounts.zones import zoned

from .errors import GameError
from .events import game_changed
from .guards import require_creator
from .locking import lock_game
from .models import CHAT_MESSAGE_MAX_LENGTH, ChatMessage, ChatReport, Game, Mute
from .selectors.viewer import can_chat


@transaction.atomic
def chat_post(*, game_id: int, user: User, text: str) -> ChatMessage:
    """Add the player's message to the chat of a game under way (a finished game's chat is kept
    as it was: the replay shows it). The game's lock numbers the messages and makes the rate
    the game's chat_count tells the table's poll. (How fast a player may write is the view's
    rate limit, games.ratelimit.)"""
    game = lock_game(game_id)
    if game.status == Game.Status.FINISHED:
        raise GameError(_("The game is over: its chat is kept, but closed."), status=409)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("The chat opens when the game starts."), status=409)
    seat = game.seats.filter(user=user).first() if user.is_authenticated else None
    if not user.is_authenticated or user.is_site_bot or not can_chat(game, seat):
        raise GameError(_("Only the players of this game can write in its chat."), status=403)
    if user.is_chat_muted(now := timezone.now()):
        raise GameError(
            _("A moderator muted you in the chats until %(until)s.")
            % {"until": zoned(user.chat_muted_until)},
            status=403,
        )
    text = one_line(text or "")
    if not text:
        raise GameError(_("Write a message first."))
    if len(text) > CHAT_MESSAGE_MAX_LENGTH:
        raise GameError(
            _("A message may have at most %(n)d characters.") % {"n": CHAT_MESSAGE_MAX_LENGTH}
        )
    Game.objects.filter(pk=game.pk).update(chat_count=F("chat_count") + 1)
    game_changed(game.pk, game.version, chat=True)  # its tables hear of it (games/events.py)
    return ChatMessage.objects.create(
        game=game,
        seq=game.chat_count + 1,
        author=user,
        text=text,
        version=game.version,
        created_at=now,
    )


def user_mute(*, user: User, other: User) -> Mute:
    """`user` no longer sees what `other` writes, in any game."""
    if other.pk == user.pk:
        raise GameError(_("You cannot mute yourself."))
    mute, _created = Mute.objects.get_or_create(muter=user, muted=other)
    return mute


def user_unmute(*, user: User, other: User) -> None:
    Mute.objects.filter(muter=user, muted=other).delete()


def chat_report(*, message: ChatMessage, user: User) -> ChatReport:
    """Flag the message for the staff (once per reader: a second report changes nothing)."""
    if message.author_id == user.pk:
        raise GameError(_("You cannot report your own message."))
    if message.hidden_at is not None:
        raise GameError(_("A moderator has hidden this message already."))
    report, _created = ChatReport.objects.get_or_create(message=message, reporter=user)
    return report


@transaction.atomic
def game_set_chat_spectators(*, game_id: int, user: User, open_to_them: bool) -> Game:
    """The host opens the chat to spectators, or closes it to them again."""
    game = lock_game(game_id)
    require_creator(game, user)
    if game.chat_spectators != open_to_them:
        game.chat_spectators = open_to_them
        game.save(update_fields=["chat_spectators"])
    return game
