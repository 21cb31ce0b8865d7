"""Reads: what pages show. Table data is built from the engine's PlayerView only, so a card the
viewer may not see never reaches a template."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from kombu import Connection

from accounts.models import User
from config.celery import app as celery_app

from .engine import (
    Discard,
    Draw,
    GameState,
    GoOut,
    Rules,
    action_from_dict,
    arrange,
    discard_options,
)
from .engine.cards import Card
from .engine.state import redact_record
from .models import Game, Heartbeat, Invitation, Move, RoundScore, Seat

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "J": "★"}
SUIT_NAMES = {
    "S": gettext_noop("spades"),
    "H": gettext_noop("hearts"),
    "D": gettext_noop("diamonds"),
    "C": gettext_noop("clubs"),
}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_WORDS = {
    1: gettext_noop("ace"), 11: gettext_noop("jack"), 12: gettext_noop("queen"),
    13: gettext_noop("king"),
}  # fmt: skip
RANK_PLURALS = {
    1: gettext_noop("Aces"), 2: gettext_noop("2s"), 3: gettext_noop("3s"), 4: gettext_noop("4s"),
    5: gettext_noop("5s"), 6: gettext_noop("6s"), 7: gettext_noop("7s"), 8: gettext_noop("8s"),
    9: gettext_noop("9s"), 10: gettext_noop("10s"), 11: gettext_noop("Jacks"),
    12: gettext_noop("Queens"), 13: gettext_noop("Kings"),
}  # fmt: skip


# -- health ----------------------------------------------------------------------------------


def database_status() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure means "down"; the reason is reported
        return {"ok": False, "vendor": connection.vendor, "error": type(error).__name__}
    return {"ok": True, "vendor": connection.vendor}


def broker_status() -> dict:
    url = celery_app.conf.broker_url
    transport = url.split("://", 1)[0]
    try:
        with Connection(url, transport_options=celery_app.conf.broker_transport_options) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
            if transport.startswith("redis"):
                conn.default_channel.client.ping()
    except Exception as error:
        return {"ok": False, "transport": transport, "error": type(error).__name__}
    return {"ok": True, "transport": transport}


def worker_last_seen(name: str = "worker"):
    return Heartbeat.objects.filter(name=name).values_list("seen_at", flat=True).first()


def worker_status(now=None) -> dict:
    """Whether the worker proved alive lately: beat queues a heartbeat task every 30 s, so a
    heartbeat older than WORKER_STALE_SECONDS means no worker is taking tasks (or no beat)."""
    last_seen = worker_last_seen()
    now = now or timezone.now()
    age = None if last_seen is None else (now - last_seen).total_seconds()
    ok = age is not None and age <= settings.WORKER_STALE_SECONDS
    return {"ok": ok, "last_seen": last_seen.isoformat() if last_seen else None, "age": age}


# -- cards -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardInfo:
    token: str
    rank: str
    suit: str
    symbol: str
    red: bool
    wild: bool
    label: str  # "7♥"
    name: str  # "7 of hearts, wild": the card in words, as a screen reader speaks it


def card_info(card: Card, wild_rank: int | None = None) -> CardInfo:
    if card.is_joker:
        return CardInfo(card.token, "JK", "J", "★", False, True, "JK★", _("joker, wild"))
    rank = RANK_NAMES.get(card.rank, str(card.rank))
    symbol = SUIT_SYMBOLS[card.suit]
    spoken_rank = _(RANK_WORDS[card.rank]) if card.rank in RANK_WORDS else rank
    name = _("%(rank)s of %(suit)s") % {"rank": spoken_rank, "suit": _(SUIT_NAMES[card.suit])}
    wild = card.rank == wild_rank
    return CardInfo(
        token=card.token,
        rank=rank,
        suit=card.suit,
        symbol=symbol,
        red=card.suit in "HD",
        wild=wild,
        label=f"{rank}{symbol}",
        name=_("%(card)s, wild") % {"card": name} if wild else name,
    )


def cards_info(cards, wild_rank=None) -> list[CardInfo]:
    return [card_info(card, wild_rank) for card in cards]


def rank_plural(rank: int) -> str:
    return _(RANK_PLURALS[rank])


def sort_hand(hand, seat: Seat | None, wild_rank: int) -> list[Card]:
    """The player's order: by suit, by rank, or their own (new cards at the end). Wilds last."""
    mode = seat.hand_sort if seat else "suit"
    if mode == "manual" and seat is not None:
        position = {token: i for i, token in enumerate(seat.hand_order)}
        return sorted(hand, key=lambda c: position.get(c.token, len(position)))

    def key(card: Card):
        wild = card.is_joker or card.rank == wild_rank
        suit = "SHCDJ".index(card.suit)
        return (wild, suit, card.rank) if mode == "suit" else (wild, card.rank, suit)

    return sorted(hand, key=key)


def _hand_marks(hand: list[dict] | None, taken: Card | None) -> list[dict] | None:
    """Marks the hand's items for the page. `held`: a copy of the card just taken from the
    discard pile, which may not go back this turn. `focus`: where the keyboard lands after a
    draw (the new card, else the first that may go). `tabstop`: with nothing to discard, the
    first card is the hand's one tab stop (the arrow keys reach the rest)."""
    if hand is None:
        return None
    face = (card_info(taken).rank, card_info(taken).suit) if taken else None
    for item in hand:
        card = item["card"]
        item["held"] = (card.rank, card.suit) == face and not item["discardable"]
        item["focus"] = False
        item["tabstop"] = item["discardable"]
    playable = [item for item in hand if item["discardable"]]
    if playable:
        next((i for i in playable if i["just_drawn"]), playable[0])["focus"] = True
    elif hand:
        hand[0]["tabstop"] = True
    return hand


# -- lists -----------------------------------------------------------------------------------


FINISHED_PER_PAGE = 20
# What a dashboard row reads: columns only, never the state (convention 16).
_ROW_GAME_FIELDS = (
    "status", "rules", "seat_count", "to_move_seat", "round_index", "deadline",
    "turn_started_at", "started_at", "finished_at", "created_by_id",
)  # fmt: skip
_ROW_SEAT_FIELDS = (
    "id", "index", "game_id", "resigned", "autopilot", "final_rank", "final_total", "finished_at",
)  # fmt: skip


def _my_seats(user: User):
    return (
        Seat.objects.filter(user=user)
        .select_related("game")
        .only(*_ROW_SEAT_FIELDS, *(f"game__{field}" for field in _ROW_GAME_FIELDS))
    )


def dashboard(user: User, page: str | None = None) -> dict:
    """The player's games in a fixed number of queries however many there are: the games under
    way and waiting to start, one page of finished games, the invitations waiting on an answer,
    the other players' names, and the scores so far (summed from the rounds played)."""
    # Both through the seat's (user, finished_at) index: a long history costs nothing here.
    under_way = [Game.Status.ACTIVE, Game.Status.OPEN]
    current = list(_my_seats(user).filter(finished_at__isnull=True, game__status__in=under_way))
    finished = Paginator(
        _my_seats(user).filter(finished_at__isnull=False).order_by("-finished_at", "-game_id"),
        FINISHED_PER_PAGE,
    ).get_page(page)
    invitations = list(
        Invitation.objects.filter(
            invitee=user, status=Invitation.Status.PENDING, game__status=Game.Status.OPEN
        )
        .exclude(game__seats__user=user)
        .select_related("game", "invited_by")
        .only(
            "id", "game_id", "invited_by__username", "invited_by__display_name",
            *(f"game__{field}" for field in _ROW_GAME_FIELDS),
            "game__time_per_move_days",
        )
        .order_by("-created_at")
    )  # fmt: skip
    seats = [*current, *finished.object_list]
    players = _players_by_game({s.game_id for s in seats} | {i.game_id for i in invitations})
    active_ids = [s.game_id for s in current if s.game.status == Game.Status.ACTIVE]
    totals = _totals_by_game(active_ids)
    rows = {s.pk: _row(s, players[s.game_id], totals.get(s.game_id)) for s in seats}
    active = [rows[s.pk] for s in current if s.game.status == Game.Status.ACTIVE]
    my_turn = [r for r in active if r["my_turn"]]
    my_turn.sort(key=lambda r: (r["game"].deadline is None, r["game"].deadline or r["game"].pk))
    waiting = [r for r in active if not r["my_turn"]]
    waiting.sort(key=lambda r: r["game"].turn_started_at or r["game"].started_at, reverse=True)
    return {
        "my_turn": my_turn,
        "waiting": waiting,
        "open_games": [rows[s.pk] for s in current if s.game.status == Game.Status.OPEN],
        "invitations": [
            {"invitation": i, "game": i.game, "players": [p.user.name for p in players[i.game_id]]}
            for i in invitations
        ],
        "finished": [rows[s.pk] for s in finished.object_list],
        "finished_page": finished,
        "no_email": not user.email,
    }


def _players_by_game(game_ids) -> dict[int, list[Seat]]:
    """Every seat of these games with its player's name, in one query."""
    players = defaultdict(list)
    seats = (
        Seat.objects.filter(game_id__in=game_ids)
        .select_related("user")
        .only("game_id", "index", "user__username", "user__display_name", "user__is_bot")
        .order_by("game_id", "index")
    )
    for seat in seats:
        players[seat.game_id].append(seat)
    return players


def _totals_by_game(game_ids) -> dict[int, dict[int, int]]:
    """Each seat's total so far, by game: the sum of its round penalties, in one query."""
    totals = defaultdict(dict)
    rows = (
        RoundScore.objects.filter(game_id__in=game_ids)
        .values_list("game_id", "seat")
        .annotate(total=Sum("penalty"))
        .order_by()
    )
    for game_id, seat, total in rows:
        totals[game_id][seat] = total
    return totals


def _row(seat: Seat, players: list[Seat], totals: dict[int, int] | None) -> dict:
    game = seat.game
    if game.status == Game.Status.FINISHED:
        place, score = seat.final_rank, seat.final_total
    elif game.status == Game.Status.ACTIVE:
        totals = {p.index: (totals or {}).get(p.index, 0) for p in players}
        score = totals[seat.index]
        place = 1 + sum(total < score for total in totals.values())
    else:
        place = score = None
    return {
        "game": game,
        "seat": seat,
        "opponents": [p.user.name for p in players if p.index != seat.index],
        "players": [p.user.name for p in players],
        "free_seats": game.seat_count - len(players),
        "round": game.round_index + 1,
        "rounds": Rules.from_dict(game.rules).round_count,
        "place": place,
        "score": score,
        "my_turn": game.status == Game.Status.ACTIVE
        and game.to_move_seat == seat.index
        and not seat.resigned,
    }


def invitations_sent(game: Game, seat: Seat | None) -> list[dict]:
    """For the host: each name they invited and its answer (nothing says whether a name is a
    player here until that player answers). Empty for anyone else."""
    if seat is None or seat.user_id != game.created_by_id:
        return []
    seated = set(game.seats.values_list("user_id", flat=True))
    rows = []
    for invitation in game.invitations.only("invited_as", "status", "invitee_id"):
        status = invitation.status
        if invitation.invitee_id is not None and invitation.invitee_id in seated:
            status = Invitation.Status.ACCEPTED
        rows.append(
            {
                "name": invitation.invited_as,
                "status": status,
                "label": Invitation.Status(status).label,
            }
        )
    return rows


def lobby(user: User) -> list[Game]:
    games = (
        Game.objects.filter(status=Game.Status.OPEN, is_public=True)
        .prefetch_related("seats__user")
        .select_related("created_by")
        .order_by("-created_at")[:50]
    )
    return [g for g in games if len(g.seats.all()) < g.seat_count]


def game_for_viewer(game_id: int, user: User) -> tuple[Game, Seat | None]:
    game = Game.objects.filter(pk=game_id).select_related("created_by").first()
    if game is None:
        return None, None
    seat = None
    if user.is_authenticated:
        seat = game.seats.filter(user=user).first()
    return game, seat


def game_for_poll(game_id: int, user: User) -> tuple[Game | None, Seat | None]:
    """The little a poll needs (version, status, who may look), in one query for a player."""
    fields = ("version", "status", "is_public", "invite_code")
    if user.is_authenticated:
        seat = (
            Seat.objects.filter(game_id=game_id, user=user)
            .select_related("game")
            .only("id", "index", "last_seen_at", *(f"game__{f}" for f in fields))
            .first()
        )
        if seat is not None:
            return seat.game, seat
    return Game.objects.filter(pk=game_id).only(*fields).first(), None


def can_watch(game: Game, seat: Seat | None, invite_code: str | None = None) -> bool:
    return seat is not None or game.is_public or invite_code == game.invite_code


def rules_summary(rules: Rules) -> list[str]:
    """The switches that differ from the defaults, in words."""
    words = []
    if rules.rounds == "extended":
        words.append(_("Extended: 13 rounds, aces then 2s wild"))
    if rules.rounds == "up_and_down":
        words.append(_("Up and down: 22 rounds"))
    if rules.aces_high:
        words.append(_("Aces high or low"))
    if rules.face_cards_by_rank:
        words.append(_("J Q K cost 11 12 13"))
    if rules.wild_penalty:
        words.append(_("Left-over wilds cost %(n)s") % {"n": rules.wild_penalty})
    if rules.max_wilds_per_meld == 1:
        words.append(_("One wild per meld"))
    if rules.all_wild_melds:
        words.append(_("All-wild melds"))
    if rules.jokers:
        words.append(_("Jokers"))
    if rules.double_face_rounds:
        words.append(_("Double face rounds"))
    if rules.redemption:
        words.append(_("Redemption"))
    return words or [_("Standard rules")]


# -- the table -------------------------------------------------------------------------------


def round_wild_rank(rules: Rules, round_index: int) -> int:
    return rules.wild_rank_for(rules.hand_sizes[round_index])


def describe_move(record: dict, names: list[str], wild_rank: int | None = None) -> str:
    """One line of history, from a record already filtered for its viewer (public_for). Cards
    are named in words ("the 7 of hearts, wild"), so the line reads the same aloud."""
    who = names[record["seat"]]
    card = record["card"]
    named = _sentence_name(Card.from_token(card), wild_rank) if card else None
    if record["type"] == "draw":
        if record["source"] == "discard":
            return _("%(who)s took the %(card)s from the discard pile") % {
                "who": who,
                "card": named,
            }
        if named:
            return _("%(who)s drew the %(card)s from the stock") % {"who": who, "card": named}
        return _("%(who)s drew from the stock") % {"who": who}
    if record["type"] == "go_out":
        return _("%(who)s went out, discarding the %(card)s") % {"who": who, "card": named}
    return _("%(who)s discarded the %(card)s") % {"who": who, "card": named}


def _sentence_name(card: Card, wild_rank: int | None) -> str:
    """A card's name inside a sentence: "the queen of hearts (wild) from the pile"."""
    if card.is_joker:
        return _("joker")
    name = card_info(card, None).name
    return _("%(card)s (wild)") % {"card": name} if card.rank == wild_rank else name


def table(game: Game, seat: Seat | None) -> dict:
    """Everything the table shows `seat` (None: a spectator), from its PlayerView alone. Whether
    the game is over is the game row's word (a resignation ends it mid-round), never the view's."""
    over = game.status == Game.Status.FINISHED
    state = GameState.from_dict(game.state)
    index = seat.index if seat else None
    view = state.view(index)
    del state  # from here on, only the view
    seats = list(game.seats.select_related("user").order_by("index"))
    names = [s.user.name for s in seats]
    wild = view.wild_rank
    to_move = None if over else view.to_move
    players = []
    for s in seats:
        players.append(
            {
                "seat": s,
                "name": s.user.name,
                "is_me": s.index == index,
                "is_bot": s.user.is_bot,
                "cards": view.card_counts[s.index],
                "total": view.totals[s.index],
                "to_move": to_move == s.index,
                "dealer": view.dealer == s.index,
                "went_out": view.went_out == s.index,
                "melds": [cards_info(meld, wild) for meld in view.shown_melds[s.index]],
            }
        )
    hand = go_out = hint = None
    can_draw = {"stock": False, "discard": False}
    my_turn = view.my_turn and not over and not (seat and seat.resigned)
    if view.hand is not None and not over:
        ordered = sort_hand(view.hand, seat, wild)
        legal = view.legal_actions if my_turn else ()
        sources = {a.source for a in legal if isinstance(a, Draw)}
        can_draw = {source: source in sources for source in ("stock", "discard")}
        discardable = {a.card.token for a in legal if isinstance(a, Discard)}
        go_out = {a.card.token for a in legal if isinstance(a, GoOut)}
        drawn = view.hand[-1] if view.phase == "discard" and view.my_turn else None
        hand = [
            {"card": card_info(c, wild), "discardable": c.token in discardable,
             "goes_out": c.token in go_out, "just_drawn": c == drawn}
            for c in ordered
        ]  # fmt: skip
        hint = _hint(view, discardable, ordered)
    since = []
    if seat is not None and seat.seen_version < game.version:
        moves = Move.objects.filter(game=game, seq__gte=seat.seen_version).exclude(seat=index)
        for move in moves.order_by("seq")[:60]:
            record = redact_record(move.record, index)
            text = describe_move(record, names, round_wild_rank(view.rules, move.round_index))
            since.append({"text": text, "past": move.round_index < view.round_index})
    last_round = None
    if view.round_results:
        result = view.round_results[-1]
        last_round = {
            "number": result.round_index + 1,
            "wild": rank_plural(result.wild_rank),
            "went_out": names[result.went_out] if result.went_out is not None else None,
            # Open the summary while the new round is young: a turn each at most.
            "fresh": over
            or Move.objects.filter(game=game, round_index=view.round_index).count()
            < 2 * view.players,
            "seats": [
                {"name": names[i], "penalty": r.penalty,
                 "melds": [cards_info(m, result.wild_rank) for m in r.melds],
                 "deadwood": cards_info(sort_hand(r.deadwood, None, result.wild_rank),
                                        result.wild_rank),
                 "layoffs": [cards_info(lo.cards, result.wild_rank) for lo in r.layoffs]}
                for i, r in enumerate(result.seats)
            ],
        }  # fmt: skip
    return {
        "game": game,
        "view": view,
        "over": over,
        "ended_early": over and game.end_reason != Game.EndReason.COMPLETED,
        "me": seat,
        "players": players,
        "names": names,
        "hand": _hand_marks(hand, view.drawn_from_discard if view.my_turn else None),
        "can_draw": can_draw,
        "can_go_out": bool(go_out),
        "hint": hint,
        "top_discard": card_info(view.top_discard, wild) if view.top_discard else None,
        "wild_name": rank_plural(wild),
        "round_number": view.round_index + 1,
        "since": since,
        "last_round": last_round,
        "scoresheet": scoresheet(view),
        "ranking": ranking(game, seats) if over else None,
        "my_turn": my_turn,
        "to_move_name": names[to_move] if to_move is not None else None,
        # A bot answers in seconds: the table looks again sooner while one is to move.
        "bot_to_move": to_move is not None
        and (seats[to_move].user.is_bot or seats[to_move].autopilot or seats[to_move].resigned),
        "rules_summary": rules_summary(view.rules),
    }


def _hint(view, discardable: set[str], ordered: list[Card]) -> dict:
    """The best arrangement of the player's own hand, and its penalty; after drawing, the best
    discard first, chosen among the discards the rules allow (never the card just taken)."""
    discard = None
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
        "melds": [cards_info(m, wild_rank) for m in best.melds],
        # Left over in the order the player's hand shows them.
        "deadwood": cards_info(sorted(best.deadwood, key=ordered.index), wild_rank),
        "penalty": best.penalty,
    }


def scoresheet(view) -> dict:
    rows = []
    running = [0] * view.players
    for result in view.round_results:
        running = [a + b for a, b in zip(running, result.penalties, strict=True)]
        rows.append(
            {
                "number": result.round_index + 1,
                "wild": rank_plural(result.wild_rank),
                "cells": [
                    {"penalty": p, "out": result.went_out == i, "total": running[i]}
                    for i, p in enumerate(result.penalties)
                ],
            }
        )
    return {"rows": rows, "totals": list(view.totals)}


def ranking(game: Game, seats: list[Seat]) -> list[dict]:
    ordered = sorted(seats, key=lambda s: (s.final_rank or 99, s.index))
    return [
        {"rank": s.final_rank, "name": s.user.name, "total": s.final_total, "resigned": s.resigned,
         "dropped": s.dropped, "winner": s.final_rank == 1}
        for s in ordered
    ]  # fmt: skip


def history(game: Game, seat: Seat | None) -> list[dict]:
    """Every move, as the viewer may see it; all cards once the game is over."""
    names = [s.user.name for s in game.seats.select_related("user").order_by("index")]
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
    quitters = [
        s.user.name for s in game.seats.select_related("user") if s.resigned and not s.user.is_bot
    ]
    if game.end_reason == Game.EndReason.DROPPED:
        return _("The game ended: %(who)s ran out of time once too often.") % {
            "who": ", ".join(quitters)
        }
    return _("The game ended: %(who)s resigned.") % {"who": ", ".join(quitters)}


def replay_step(game: Game, step: int) -> dict:
    """The whole table after `step` moves, every hand shown: for finished games only."""
    total = game.version
    step = max(0, min(step, total))
    state = replayed_state(game, step)
    names = [s.user.name for s in game.seats.select_related("user").order_by("index")]
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
