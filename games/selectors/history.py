"""A game's past: its move history as the viewer may see it, and the replay of a finished game
rebuilt from its seed and moves."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ..engine import GameState, Rules, action_from_dict
from ..engine.results import redact_record
from ..models import Game, Move, Seat
from ..presentation import (
    card_info,
    cards_info,
    describe_move,
    rank_plural,
    round_wild_rank,
    sort_hand,
)


def history(game: Game, seat: Seat | None) -> list[dict[str, Any]]:
    """Every move, as the viewer may see it; all cards once the game is over. The game as
    viewer.game_for_viewer reads it (its seats with their players)."""
    names = [s.user.name for s in game.seats.all()]
    over = game.status == Game.Status.FINISHED
    viewer = seat.index if seat else None
    current_round = game.state["round_index"] if game.state else 0
    rules = Rules.from_dict(game.rules)
    rows = []
    for move in Move.objects.filter(game=game).order_by("seq"):
        record = move.record if over else redact_record(move.record, viewer)
        rows.append(
            {
                "past": over or move.round_index < current_round,
                "seq": move.seq + 1,
                "round": move.round_index + 1,
                "text": describe_move(record, names, round_wild_rank(rules, move.round_index)),
                "at": move.created_at,
                "by_bot": move.by_bot,
            }
        )
    return rows


def replayed_state(game: Game, moves: int | None = None) -> GameState:
    """The game rebuilt from its seed and move log alone (the first `moves` moves, or all)."""
    actions = Move.objects.filter(game=game).order_by("seq").values_list("action", flat=True)
    if moves is not None:
        actions = actions[:moves]
    return GameState.replay(
        Rules.from_dict(game.rules), game.seat_count, game.seed, map(action_from_dict, actions)
    )


def _end_words(game: Game) -> str:
    """Why a game ended before its last round, naming who left."""
    quitters = [s.user.name for s in game.seats.all() if s.resigned and not s.user.is_bot]
    if game.end_reason == Game.EndReason.DROPPED:
        return _("The game ended: %(who)s ran out of time once too often.") % {
            "who": ", ".join(quitters)
        }
    return _("The game ended: %(who)s resigned.") % {"who": ", ".join(quitters)}


def replay_step(game: Game, step: int) -> dict[str, Any]:
    """The whole table after `step` moves, every hand shown: for finished games only. The game
    as viewer.game_for_viewer reads it."""
    total = game.version
    step = max(0, min(step, total))
    state = replayed_state(game, step)
    names = [s.user.name for s in game.seats.all()]
    wild = state.wild_rank
    hands = [
        {"name": names[i], "cards": cards_info(sort_hand(h, None, wild), wild),
         "to_move": state.to_move == i, "total": state.totals[i]}
        for i, h in enumerate(state.hands)
    ]  # fmt: skip
    last = None
    if step:
        move = Move.objects.get(game=game, seq=step - 1)
        wild_then = round_wild_rank(Rules.from_dict(game.rules), move.round_index)
        last = describe_move(move.record, names, wild_then)
    if step == total and game.end_reason in (Game.EndReason.RESIGNED, Game.EndReason.DROPPED):
        last = " · ".join(filter(None, [last, _end_words(game)]))
    return {
        "step": step,
        "steps": total,
        "round_number": state.round_index + 1,
        "wild_name": rank_plural(wild),
        "hands": hands,
        "top_discard": card_info(state.discard_pile[-1], wild) if state.discard_pile else None,
        "stock_size": len(state.stock),
        "totals": state.totals,
        "last": last,
        "names": names,
    }
