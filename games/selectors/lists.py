"""Reads for the lists: the dashboard, the lobby, a host's invitations, the games waiting on a
player. Rows read columns, never a game's state (convention 16), in a fixed number of queries."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypedDict

from django.core.paginator import Paginator
from django.db.models import Count, F, QuerySet, Sum, Window

from accounts.models import User
from accounts.selectors import verified_email

from ..engine import Rules
from ..models import Game, Invitation, RoundScore, Seat
from .chat import has_news
from .viewer import listed_for

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations  # django-stubs' own: a dev dependency

FINISHED_PER_PAGE = 20
# What a dashboard row reads: columns only, never the state (convention 16).
_ROW_GAME_FIELDS = (
    "status", "rules", "seat_count", "to_move_seat", "round_index", "deadline",
    "turn_started_at", "started_at", "finished_at", "created_by_id",
)  # fmt: skip
_ROW_SEAT_FIELDS = (
    "id", "index", "game_id", "resigned", "autopilot", "final_rank", "final_total", "finished_at",
)  # fmt: skip


class ChatNews(TypedDict):
    chat_news: bool


def _my_seats(user: User) -> QuerySet[WithAnnotations[Seat, ChatNews]]:
    return (
        Seat.objects.filter(user=user)
        .select_related("game")
        .only(*_ROW_SEAT_FIELDS, *(f"game__{field}" for field in _ROW_GAME_FIELDS))
        .annotate(chat_news=has_news(user))
    )


def dashboard(user: User, page: str | None = None) -> dict[str, Any]:
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
        _invitations_waiting(user)
        .select_related("game", "invited_by")
        .only(
            "id", "game_id", "invited_by__username", "invited_by__display_name",
            "invited_by__name_change_due",
            *(f"game__{field}" for field in _ROW_GAME_FIELDS),
            "game__time_per_move_days",
        )
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
        "invitations_mark": _mark(i.pk for i in invitations),
        "finished": [rows[s.pk] for s in finished.object_list],
        "finished_page": finished,
        "mail_address": verified_email(user),
    }


def _invitations_waiting(user: User) -> QuerySet[Invitation]:
    """The invitations waiting on the player's answer, newest first: to games still open that
    they have no seat at."""
    return (
        Invitation.objects.filter(
            invitee=user, status=Invitation.Status.PENDING, game__status=Game.Status.OPEN
        )
        .exclude(game__seats__user=user)
        .order_by("-created_at", "-pk")
    )


def invitations_mark(user: User) -> str:
    """What the dashboard's invitations are, in one short string (one query): the dashboard's
    poll asks whether it is still what the page shows."""
    return _mark(_invitations_waiting(user).values_list("pk", flat=True))


def _mark(invitation_ids: Iterable[int]) -> str:
    text = ",".join(str(pk) for pk in invitation_ids)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _players_by_game(game_ids: Iterable[int]) -> dict[int, list[Seat]]:
    """Every seat of these games with its player's name, in one query."""
    players: defaultdict[int, list[Seat]] = defaultdict(list)
    seats = (
        Seat.objects.filter(game_id__in=game_ids)
        .select_related("user")
        .only(
            "game_id",
            "index",
            "user__username",
            "user__display_name",
            "user__is_bot",
            "user__name_change_due",
        )
        .order_by("game_id", "index")
    )
    for seat in seats:
        players[seat.game_id].append(seat)
    return players


def _totals_by_game(game_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    """Each seat's total so far, by game: the sum of its round penalties, in one query."""
    totals: defaultdict[int, dict[int, int]] = defaultdict(dict)
    rows = (
        RoundScore.objects.filter(game_id__in=game_ids)
        .values_list("game_id", "seat")
        .annotate(total=Sum("penalty"))
        .order_by()
    )
    for game_id, seat, total in rows:
        totals[game_id][seat] = total
    return totals


def _row(
    seat: WithAnnotations[Seat, ChatNews], players: list[Seat], totals: dict[int, int] | None
) -> dict[str, Any]:
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
        "chat_news": seat.chat_news,
        # As games_waiting_on: a seat on autopilot is its bot's to move.
        "my_turn": game.status == Game.Status.ACTIVE
        and game.to_move_seat == seat.index
        and not seat.resigned
        and not seat.autopilot,
    }


def invitations_sent(game: Game, seat: Seat | None) -> list[dict[str, Any]]:
    """For the host: each name they invited and its answer (nothing says whether a name is a
    player here until that player answers). Empty for anyone else. The game as
    viewer.game_for_viewer reads it."""
    if seat is None or seat.user_id != game.created_by_id:
        return []
    seated = {s.user_id for s in game.seats.all()}
    rows = []
    for invitation in game.invitations.only("invited_as", "status", "invitee_id"):
        status = invitation.status
        if invitation.invitee_id is not None and invitation.invitee_id in seated:
            status = Invitation.Status.ACCEPTED
        rows.append(
            {
                "name": invitation.invited_as,
                "status": status,
                "declined": status == Invitation.Status.DECLINED,
                "label": Invitation.Status(status).label,
            }
        )
    return rows


def lobby(user: User) -> list[Game]:
    """The open games with a free seat that `user` may join: listed ones, and friends-only ones
    whose host follows them; in three queries however many."""
    games = (
        Game.objects.filter(listed_for(user), status=Game.Status.OPEN)
        .prefetch_related("seats__user")
        .select_related("created_by")
        .order_by("-created_at")[:50]
    )
    return [g for g in games if len(g.seats.all()) < g.seat_count]


def games_waiting_on(user: User) -> QuerySet[Seat]:
    """The player's seats whose game waits on their move (through the index of seats not yet
    finished: as quick for a long history as for none)."""
    return Seat.objects.filter(
        user=user,
        finished_at__isnull=True,
        game__status=Game.Status.ACTIVE,
        game__to_move_seat=F("index"),
        autopilot=False,
        resigned=False,
    )


def next_game(user: User, *, besides: int | None = None) -> tuple[int | None, int]:
    """The game most urgently waiting on the player's move, other than `besides` (the one they
    are at), and how many such games wait: (None, 0) when none. Earliest deadline first, then
    the games without one, the turn that began first first. One query (the count is a window
    over the same rows)."""
    seats = games_waiting_on(user)
    if besides is not None:
        seats = seats.exclude(game_id=besides)
    first = (
        seats.annotate(waiting=Window(Count("pk")))
        .order_by(
            F("game__deadline").asc(nulls_last=True),
            F("game__turn_started_at").asc(nulls_last=True),
            "game_id",
        )
        .values_list("game_id", "waiting")
        .first()
    )
    return first or (None, 0)
