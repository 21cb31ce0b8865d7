"""The table as one seat (or a spectator) sees it, built from the engine's PlayerView alone, so a
card the viewer may not see never reaches a template."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..engine import Discard, Draw, GameState, GoOut, PlayerView, arrange, discard_options
from ..engine.cards import Card
from ..engine.view import PILE_THREW
from ..models import Game, Move, Seat
from ..presentation import (
    CardInfo,
    card_info,
    cards_info,
    hand_sort_mode,
    pile_log,
    rank_plural,
    ranking,
    round_summary,
    rules_summary,
    scoresheet,
    since_lines,
    sort_hand,
)
from ..ratings import rating_of
from .advice import offered as advice_offered
from .hints import throw_reasons
from .pauses import vacations_under_way


def table(
    game: Game, seat: Seat | None, *, parts: bool = False, hand_shown: str = ""
) -> dict[str, Any]:
    """Everything the table shows `seat` (None: a spectator), from its PlayerView alone. Whether
    the game is over is the game row's word (a resignation ends it mid-round), never the view's.
    The game as viewer.game_for_viewer reads it (its seats with their players).

    `parts`: only what a move can change within a round (the head, the players, the piles, the
    round's discards, the news since the last visit; templates/games/table.html#parts), for a
    page that shows this round already; and the hand only when its mark (`hand_mark`) is not
    `hand_shown`, the one the page holds. What stays as it was within a round (the scoresheet,
    the rules; the last round's summary once a turn each was played) is left out, and so is the
    hint's search."""
    over = game.status == Game.Status.FINISHED
    assert game.state is not None, "a table is of a game that has started"
    state = GameState.from_dict(game.state)
    index = seat.index if seat else None
    view = state.view(index)
    del state  # from here on, only the view
    seats = list(game.seats.all())
    names = [s.user.name for s in seats]
    wild = view.wild_rank
    to_move = None if over else view.to_move
    away = {} if over else vacations_under_way([s.user_id for s in seats])
    players = []
    for s in seats:
        players.append(
            {
                "seat": s,
                "name": s.user.name,
                "is_me": s.index == index,
                "is_bot": s.user.is_bot,
                "rating": rating_of(s.user),
                "cards": view.card_counts[s.index],
                "total": view.totals[s.index],
                "to_move": to_move == s.index,
                "dealer": view.dealer == s.index,
                "went_out": view.went_out == s.index,
                "melds": [cards_info(meld, wild) for meld in view.shown_melds[s.index]],
                "vacation_until": away.get(s.user_id),
                "clock": None if over else _seat_clock(game, s, to_move == s.index),
            }
        )
    hand = go_out = hint = None
    can_draw = {"stock": False, "discard": False}
    my_turn = view.my_turn and not over and not (seat and seat.resigned)
    mark = ""
    sort = hand_sort_mode(seat, view.round_index)
    if view.hand is not None and not over:
        ordered = sort_hand(view.hand, seat, wild, view.round_index)
        legal = view.legal_actions if my_turn else ()
        sources = {a.source for a in legal if isinstance(a, Draw)}
        can_draw = {source: source in sources for source in ("stock", "discard")}
        discardable = {a.card.token for a in legal if isinstance(a, Discard)}
        go_out = {a.card.token for a in legal if isinstance(a, GoOut)}
        drawn = view.hand[-1] if view.phase == "discard" and view.my_turn else None
        mark = hand_mark(ordered, my_turn, view.phase if my_turn else "", discardable, go_out,
                         drawn,
                         view.drawn_from_discard if view.my_turn else None, sort)  # fmt: skip
        if not (parts and mark == hand_shown):
            hand = [
                {"card": card_info(c, wild), "discardable": c.token in discardable,
                 "goes_out": c.token in go_out, "just_drawn": c == drawn}
                for c in ordered
            ]  # fmt: skip
            hint = _hint(view, discardable, ordered)
    since = []
    if seat is not None and seat.seen_version < game.version:
        since = since_lines(moves_since(game, seat)[:60], names, view)
    last_round = None
    # In parts, the last round's summary only while the new round is young, and as it stops
    # being so (a turn each played): it opens fresh, then closes.
    if view.round_results and (not parts or _turns_this_round(view) <= view.players):
        last_round = round_summary(view.round_results[-1], names)
        # Open the summary while the new round is young: a turn each at most.
        last_round["fresh"] = over or _turns_this_round(view) < view.players
    top_discard = card_info(view.top_discard, wild) if view.top_discard else None
    return {
        "game": game,
        "view": view,
        "over": over,
        "ended_early": over and game.end_reason != Game.EndReason.COMPLETED,
        "me": seat,
        "hand_sort": sort,
        "players": players,
        "names": names,
        "hand": _hand_marks(hand, view.drawn_from_discard if view.my_turn else None),
        "hand_mark": mark,
        # The hand is drawn (else, in parts, the page's stands): its section and the hint.
        "hand_drawn": hand is not None,
        "can_draw": can_draw,
        "can_go_out": bool(go_out),
        "hint": hint,
        "top_discard": top_discard,
        "discard_label": _discard_label(top_discard),
        "wild_name": rank_plural(wild),
        "round_number": view.round_index + 1,
        "since": since,
        "pile_log": [] if over else pile_log(view, names),
        "last_round": last_round,
        "scoresheet": None if parts else scoresheet(view),
        "ranking": ranking(game, seats) if over else None,
        "my_turn": my_turn,
        "advice_offered": my_turn and advice_offered(game, seat),
        # The seat to move shows the time left itself: on a phone the header need not repeat it.
        "deadline_on_seat": any(
            p["to_move"] and p["clock"] == "left" and not p["vacation_until"] for p in players
        ),
        "to_move_name": names[to_move] if to_move is not None else None,
        # A bot answers in seconds: the table looks again sooner while one is to move.
        "bot_to_move": to_move is not None and seats[to_move].played_by_bot,
        "rules_summary": None if parts else rules_summary(view.rules),
    }


def hand_mark(
    ordered: list[Card],
    my_turn: bool,
    phase: str,
    discardable: set[str],
    go_out: set[str],
    drawn: Card | None,
    taken: Card | None,
    sort: str = "suit",
) -> str:
    """A short mark of all the hand's section shows (its cards in order, which may go and how,
    the card just drawn or taken, whose turn, the phase, the sort chosen, the language): equal
    marks, the same section. A page sends the mark of the hand it holds, and a table drawn in
    parts leaves the hand out when it has not changed."""
    shown = (
        [c.token for c in ordered], my_turn, phase, sorted(discardable), sorted(go_out),
        drawn.token if drawn else None, taken.token if taken else None, sort, get_language(),
    )  # fmt: skip
    return hashlib.blake2b(repr(shown).encode(), digest_size=8).hexdigest()


def _seat_clock(game: Game, seat: Seat, to_move: bool) -> str | None:
    """Which clock a seat's box shows: "left" (the time left to move, for the player to move),
    "per_move" (the game's time per move, for the others), or None (no time limit, or a bot
    plays the seat)."""
    if seat.played_by_bot or not game.time_per_move_days:
        return None
    if to_move:
        return "left" if game.deadline else None
    return "per_move"


def moves_since(game: Game, seat: Seat) -> QuerySet[Move]:
    """The others' moves since `seat` last looked, oldest first, up to the version of `game` as
    read (its state is what the table shows): a move made since that read is the next answer's."""
    moves = Move.objects.filter(game=game, seq__gte=seat.seen_version, seq__lt=game.version)
    return moves.exclude(seat=seat.index).order_by("seq")


def _turns_this_round(view: PlayerView) -> int:
    """The turns played in the round so far: each ends with a card thrown to the pile."""
    return sum(kind == PILE_THREW for _seat, kind, _card in view.pile_events)


def _hint(view: PlayerView, discardable: set[str], ordered: list[Card]) -> dict[str, Any]:
    """The best arrangement of the player's own hand, and its penalty; after drawing, the best
    discard first, chosen among the discards the rules allow (never the card just taken)."""
    discard = None
    assert view.hand is not None, "a seat's own view"
    cards = list(view.hand)
    wild_rank, rules = view.wild_rank, view.rules
    if view.my_turn and view.phase == "discard" and discardable:
        options = discard_options(cards, wild_rank, rules)
        allowed = [card for card in options if card.token in discardable]
        discard = min(allowed, key=lambda c: (options[c], -rules.penalty(c, wild_rank)))
        cards.remove(discard)
    best = arrange(cards, wild_rank, rules)
    return {
        "discard": card_info(discard, wild_rank) if discard else None,
        "why": throw_reasons(discard, cards, best.deadwood, wild_rank, rules) if discard else [],
        "melds": [cards_info(m, wild_rank) for m in best.melds],
        # Left over in the order the player's hand shows them.
        "deadwood": cards_info(sorted(best.deadwood, key=ordered.index), wild_rank),
        "penalty": best.penalty,
    }


def _hand_marks(
    hand: list[dict[str, Any]] | None, taken: Card | None
) -> list[dict[str, Any]] | None:
    """Marks the hand's items for the page. `held`: a copy of the card just taken from the
    discard pile, which may not go back this turn. `focus`: where the keyboard lands after a
    draw (the new card, else the first that may go). `tabstop`: with nothing to discard, the
    first card is the hand's one tab stop (the arrow keys reach the rest). `label`: what the
    card's button says to a screen reader."""
    if hand is None:
        return None
    face = (card_info(taken).rank, card_info(taken).suit) if taken else None
    for item in hand:
        card = item["card"]
        item["held"] = (card.rank, card.suit) == face and not item["discardable"]
        item["focus"] = False
        item["tabstop"] = item["discardable"]
        item["label"] = _card_label(item)
    playable = [item for item in hand if item["discardable"]]
    if playable:
        next((i for i in playable if i["just_drawn"]), playable[0])["focus"] = True
    elif hand:
        hand[0]["tabstop"] = True
    return hand


def _card_label(item: dict[str, Any]) -> str:
    """What pressing a card of the hand does, or why it does nothing."""
    name: str = item["card"].name
    if item["discardable"]:
        if item["just_drawn"]:
            return _("Discard the %(c)s (just drawn)") % {"c": name}
        return _("Discard the %(c)s") % {"c": name}
    if item["held"]:
        return _("%(c)s: you just took it, so it may not go back this turn") % {"c": name}
    return name


def _discard_label(top: CardInfo | None) -> str:
    """What the discard pile's button says to a screen reader."""
    if top is None:
        return _("The discard pile is empty")
    return _("Take the %(c)s from the discard pile") % {"c": top.name}
