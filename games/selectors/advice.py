"""The hard bot's advice at the table, asked for by the player on their turn: what the hard
level would do from their seat's view (the review's judge: engine bots/review.py), beside what
the hint (the least penalty now) would do, and what the hint's choice is expected to cost in the
player's own penalty points this round (the review's measure).

It is its own request, made when the player asks: the judge costs milliseconds to a little over
a hundred (docs/bots.md, "Game review"), too much for every render of the table. It is offered
in games where every other seat is a bot: in a game against people, it would be a second player
at the seat. It reads only the seat's `PlayerView`, as a bot does."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ..engine import Action, Discard, Draw, GameState, GoOut, PlayerView
from ..engine.bots.review import ACCURATE_WITHIN, judge
from ..engine.bots.simple import best_going_out, choose_draw, ranked_discards
from ..errors import GameError
from ..models import Game, Seat
from ..presentation import card_info
from .hints import choice_reasons


def offered(game: Game, seat: Seat | None) -> bool:
    """Whether the seat may ask for the hard bot's advice: a person's seat in a game where every
    other seat is a bot (the game's seats with their players, as the table reads them)."""
    if seat is None or seat.user.is_bot or game.status != Game.Status.ACTIVE:
        return False
    return all(s.user.is_bot for s in game.seats.all() if s.pk != seat.pk)


def advice(game: Game, seat: Seat | None, version: int | None) -> dict[str, Any]:
    """The hard bot's choice for the seat's decision now and the hint's, in words; GameError
    when it may not ask (403), or the page is not of this turn (409)."""
    if not offered(game, seat):
        raise GameError(
            _("The hard bot's advice is for a player's own turn in a game against bots."),
            status=403,
        )
    assert seat is not None and game.state is not None, "offered: a seat in a game in play"
    if version != game.version:
        raise GameError(_("This page is out of date: reload it and try again."), status=409)
    view = GameState.from_dict(game.state).view(seat.index)
    if not view.my_turn or seat.resigned:
        raise GameError(_("It is not your turn."), status=409)
    greedy = _hint_choice(view)
    decision = judge(view, greedy)
    best = greedy if decision is None else decision.best
    gives_up = 0 if decision is None or decision.cost < ACCURATE_WITHIN else round(decision.cost)
    agrees = best == greedy
    hand, wild = view.hand or (), view.wild_rank
    return {
        "best": _words(best, view),
        "why": [] if agrees else choice_reasons(best, hand, view.top_discard, wild, view.rules),
        "agrees": agrees,
        "draw": view.phase == "draw",
        "gives_up": gives_up,
    }


def _hint_choice(view: PlayerView) -> Action:
    """What the hint would do: draw as the medium level draws (the top discard only when it
    lowers the penalty now); go out when it can; else throw the card that leaves the least."""
    if view.phase == "draw":
        return choose_draw(view)
    going_out = best_going_out(view)
    if going_out is not None:
        return going_out
    assert view.seat is not None, "a seat's own view"
    return Discard(view.seat, ranked_discards(view)[0][1])


def _words(action: Action, view: PlayerView) -> str:
    wild = view.wild_rank
    if isinstance(action, Draw):
        if action.source == "stock":
            return _("The hard bot would draw from the stock.")
        assert view.top_discard is not None, "a draw from the pile takes its top card"
        return _("The hard bot would take the %(card)s.") % {
            "card": card_info(view.top_discard, wild).name
        }
    name = card_info(action.card, wild).name
    if isinstance(action, GoOut):
        return _("The hard bot would go out, throwing the %(card)s.") % {"card": name}
    return _("The hard bot would throw the %(card)s.") % {"card": name}
