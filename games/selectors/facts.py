"""A game as data, for the API (games/api/): what anyone at the table sees of it, and the table
as one seat sees it. Both come from the engine's PlayerView, so neither carries a card its viewer
may not see: the facts are the view of no seat (never a hand), the seat's view holds its own."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from accounts.models import User

from ..engine import GameState, Rules
from ..errors import GameError
from ..models import Game, Seat
from ..ratings import rating_of
from .viewer import chat_version


def player_facts(user: User) -> dict[str, Any]:
    shown = rating_of(user)
    return {
        "id": user.pk,
        "username": user.username,
        "name": user.name,
        "is_bot": user.is_bot,
        "owner": user.owner.username if user.owner is not None else None,
        "rating": shown.value,
        "provisional": shown.provisional,
    }


def game_facts(game: Game, seat: Seat | None) -> dict[str, Any]:
    """What anyone at the table sees (the game as viewer.game_for_viewer reads it): seats, cards
    held, melds shown, scores, whose move."""
    public = GameState.from_dict(game.state).view(None) if game.state else None
    return {
        "id": game.pk,
        "status": game.status,
        "version": game.version,
        "seat_count": game.seat_count,
        "to_move": game.to_move_seat if game.status == Game.Status.ACTIVE else None,
        "round": game.round_index + 1,
        "rounds": Rules.from_dict(game.rules).round_count,
        "wild_rank": public.wild_rank if public else None,
        "top_discard": public.top_discard.token if public and public.top_discard else None,
        "stock_size": public.stock_size if public else None,
        "chat_count": chat_version(game, seat),
        "time_per_move_days": game.time_per_move_days,
        "deadline": game.deadline,
        "rated": game.rated,
        "listed": game.is_public,
        "end_reason": game.end_reason,
        "scores": [list(r) for r in public.scores] if public else [],
        "winners": list(public.winners) if public and game.status == Game.Status.FINISHED else [],
        "seats": [
            {
                "index": s.index,
                "player": player_facts(s.user),
                "cards": public.card_counts[s.index] if public else 0,
                "total": public.totals[s.index] if public else 0,
                "melds": [[c.token for c in meld] for meld in public.shown_melds[s.index]]
                if public
                else [],
                "resigned": s.resigned,
                "autopilot": s.autopilot,
            }
            for s in game.seats.all()
        ],
    }


def seat_view(game: Game, seat: Seat | None) -> dict[str, Any]:
    """The table as `seat` sees it (a spectator's has no hand), with the moves it may make now;
    GameError 409 before the game has started."""
    if not game.state:
        raise GameError(_("This game has not started yet."), status=409)
    data = GameState.from_dict(game.state).view(seat.index if seat else None).to_dict()
    if game.status != Game.Status.ACTIVE or (seat is not None and seat.resigned):
        data["legal_actions"] = []
    if game.status != Game.Status.ACTIVE:
        data["to_move"] = None
    return {**data, "game": game.pk, "version": game.version}
