"""A turn mail's one-click links: "Draw from the stock", "Take the 7♥", then one per card to
discard or go out with. Each is a signed token for one turn of one seat (reply_tokens.TurnRef with
its action): opening it shows what it would do, and only the page's button plays it, so that a
mail scanner fetching links moves nothing. It needs no login, and is good for that turn only."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..engine import GameState
from ..engine.cards import Card
from ..errors import GameError
from ..models import Game, Seat
from ..notifications.reply_tokens import TurnRef, turn_read
from ..presentation import card_info
from .commands import Command, parse_turn
from .inbound import turn_play


@dataclass(frozen=True)
class TurnLink:
    ref: TurnRef
    game: Game
    seat: Seat
    command: Command


def _command(action: str) -> Command:
    kind, _dot, face = action.partition(".")
    words = {"stock": "stock", "take": "take", "d": f"discard {face}", "o": f"out {face}"}
    if kind not in words:
        raise GameError(_("This link is not valid."), status=404)
    return parse_turn(words[kind])[0]


def link_read(token: str) -> TurnLink:
    """What a link names: its turn, game, seat and move. GameError (404) if it is not ours."""
    ref = turn_read(token)
    if ref is None or not ref.action:
        raise GameError(_("This link is not valid."), status=404)
    seat = (
        Seat.objects.select_related("game", "user")
        .filter(game_id=ref.game_id, index=ref.seat)
        .first()
    )
    if seat is None or seat.user.is_bot:
        raise GameError(_("This link is not valid."), status=404)
    return TurnLink(ref, seat.game, seat, _command(ref.action))


def link_view(link: TurnLink):
    """The seat's view of the game now (its hand shown only to the link's holder: the mail that
    carried the link showed it too)."""
    return GameState.from_dict(link.game.state).view(link.seat.index)


def link_words(link: TurnLink, view) -> str:
    """What the link's button does, in words."""
    command = link.command
    if command.kind == "stock":
        return _("Draw from the stock")
    if command.kind == "take":
        top = view.top_discard
        if top is None:
            return _("Take the top card of the discard pile")
        return _("Take the %(card)s from the discard pile") % {"card": card_info(top).name}
    name = card_info(Card(*command.card)).name
    if command.kind == "discard":
        return _("Discard the %(card)s") % {"card": name}
    return _("Go out, discarding the %(card)s") % {"card": name}


def link_play(*, token: str) -> TurnLink:
    """Play the link's move if its turn is still the game's (else GameError: moved on)."""
    link = link_read(token)
    turn_play(link.game, link.seat.user, link.ref.version, [link.command])
    link.game.refresh_from_db()
    return link
