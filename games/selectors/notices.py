"""The notice centre: what happened in the player's games since they last looked, read from the
records the mails and pushes are sent from: the outbox's mail rows (always recorded, sent or
not: your turn, reminders, invitations, timeouts, drops, game ends) and the moves the others
made. One query per source for the page, one query in all for the bar's count.

To add a kind of news (chat, say): write a source with `items` (its notices, one query) and
`count` (an integer expression for that query), add it to SOURCES, and give its kind a line in
templates/games/notices.html (the `notice` partial)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any, Protocol

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet, Subquery
from django.db.models.expressions import BaseExpression
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User

from ..models import Game, Move, Notification, RoundScore, Seat

# The page also shows what came before the last look, this far back, so that a look is not lost.
EARLIER = timedelta(days=7)
PER_SOURCE = 50


@dataclass(frozen=True)
class RoundOver:
    number: int  # 1-based
    went_out: str  # who went out ("" for the viewer, or for nobody)
    nobody_out: bool = False  # the round ended at the turn limit


@dataclass(frozen=True)
class Notice:
    kind: str  # a Notification.Kind, or "moves"
    at: datetime
    game: Game | None
    rounds: tuple[RoundOver, ...] = ()  # moves: the rounds that ended meanwhile (the last two)
    earlier: tuple[int, int] | None = None  # moves: (first, last) of the rounds over before them
    detail: int | str = 0  # reminders: the percent of the time used; mail answers: the outcome
    your_turn: bool = False  # moves: the turn is now the player's
    player: str = ""  # joined, declined: who


class Source(Protocol):
    def items(self, user: User, since: datetime) -> list[Notice]: ...
    def count(self, user_id: int, since: datetime) -> BaseExpression: ...


def _counted(rows: QuerySet[Any], group: str) -> Subquery[Any]:
    """The number of `rows` (all of one player, grouped by `group`), as an expression."""
    return Subquery(rows.order_by().values(group).annotate(n=Count("pk")).values("n")[:1])


class OutboxSource:
    """What the mails told, or would have told: one mail row per event whatever the player's
    mail preferences (the digest aside: it only gathers what is already here). Only the latest
    of a kind per game (this turn's reminder, not last week's), and no 'your turn' in a game
    whose moves by the others are news: that line says whose turn it is."""

    # A season's result is about no game: its mail and the league's pages tell it; so is a
    # moderator's measure, which its mail tells.
    kinds = [
        kind
        for kind in Notification.Kind.values
        if kind
        not in (
            Notification.Kind.DIGEST,
            Notification.Kind.LEAGUE_SEASON,
            Notification.Kind.MODERATION,
        )
    ]

    def rows(self, user_id: int, since: datetime) -> QuerySet[Notification]:
        mail = Notification.objects.filter(user_id=user_id, channel=Notification.Channel.MAIL)
        later = mail.filter(kind=OuterRef("kind"), game=OuterRef("game"), pk__gt=OuterRef("pk"))
        my_seat = Seat.objects.filter(game=OuterRef(OuterRef("game")), user_id=user_id)
        moves = Move.objects.filter(game=OuterRef("game"), created_at__gt=since).exclude(
            seat=Subquery(my_seat.values("index")[:1])
        )
        return (
            mail.filter(kind__in=self.kinds, created_at__gt=since)
            .exclude(Exists(later))
            .exclude(Q(kind=Notification.Kind.YOUR_TURN) & Exists(moves))
        )

    def items(self, user: User, since: datetime) -> list[Notice]:
        rows = (
            self.rows(user.pk, since)
            .select_related(
                "game__created_by",
                "player",
                "game__tournament_table__round__tournament",
                "inbound",
            )
            .order_by("-created_at")[:PER_SOURCE]
        )
        return [
            Notice(
                kind=row.kind,
                at=row.created_at,
                game=row.game,
                detail=row.inbound.outcome if row.inbound else row.threshold,
                player=row.player.name if row.player else "",
            )
            for row in rows
        ]

    def count(self, user_id: int, since: datetime) -> BaseExpression:
        return _counted(self.rows(user_id, since), "user")


class MovesSource:
    """The moves the others made in the player's games: one notice per game, saying what
    matters of them (the rounds that ended, who went out, whether it is the player's turn), not
    how many there were."""

    def _others_moves(self, since: datetime) -> QuerySet[Move]:
        return Move.objects.filter(game=OuterRef("game"), created_at__gt=since).exclude(
            seat=OuterRef("index")
        )

    def seats(self, user_id: int, since: datetime) -> QuerySet[Seat]:
        # A game that ended before `since` has no move after it (its last move came first): only
        # the seats of games under way or ended since are looked into, through the seat's
        # (user, finished_at) index, however long the player's history.
        recent = Q(finished_at__isnull=True) | Q(finished_at__gt=since)
        return Seat.objects.filter(recent, user_id=user_id).filter(
            Exists(self._others_moves(since))
        )

    def items(self, user: User, since: datetime) -> list[Notice]:
        moves = self._others_moves(since).order_by().values("game")
        seats = list(
            self.seats(user.pk, since)
            .annotate(last_at=Subquery(moves.annotate(at=Max("created_at")).values("at")[:1]))
            .select_related("game")
            .order_by("-last_at")[:PER_SOURCE]
        )
        rounds = rounds_over_since(seats, since)
        return [
            Notice(
                kind="moves",
                at=seat.last_at,
                game=seat.game,
                **_told(rounds.get(seat.game_id, ())),
                your_turn=seat.game.status == Game.Status.ACTIVE
                and seat.game.to_move_seat == seat.index
                and not (seat.autopilot or seat.resigned),
            )
            for seat in seats
        ]

    def count(self, user_id: int, since: datetime) -> BaseExpression:
        return _counted(self.seats(user_id, since), "user")


def _told(rounds: tuple[RoundOver, ...]) -> dict[str, Any]:
    """Up to three rounds one by one; more as a span, then the last two (a player away for a
    whole game reads a line, not eleven sentences)."""
    if len(rounds) <= 3:
        return {"rounds": rounds}
    return {"rounds": rounds[-2:], "earlier": (rounds[0].number, rounds[-3].number)}


# What User.name reads.
USER_NAME_FIELDS = (
    "user__username", "user__display_name", "user__is_active", "user__name_change_due"
)  # fmt: skip


def rounds_over_since(seats: Sequence[Seat], since: datetime) -> dict[int, tuple[RoundOver, ...]]:
    """For each of these seats' games, the rounds that ended after `since`, in order, each with
    who went out (a round ends some turns after that), or nobody (at the turn limit): one query,
    every seat's score of those rounds, the one who went out first."""
    mine = {seat.game_id: seat.index for seat in seats}
    ended = Move.objects.filter(
        game=OuterRef("game"),
        round_index=OuterRef("round_index"),
        created_at__gt=since,
        record__round_ended=True,
    )
    scores = (
        RoundScore.objects.filter(game_id__in=mine)
        .filter(Exists(ended))
        .select_related("user")
        .only("game_id", "round_index", "seat", "went_out", *USER_NAME_FIELDS)
        .order_by("game_id", "round_index", "-went_out")
    )
    rounds: dict[int, tuple[RoundOver, ...]] = {}
    told: set[tuple[int, int]] = set()
    for score in scores:
        if (score.game_id, score.round_index) in told:
            continue
        told.add((score.game_id, score.round_index))
        number = score.round_index + 1
        if not score.went_out:
            over = RoundOver(number, "", nobody_out=True)
        else:
            over = RoundOver(number, "" if score.seat == mine[score.game_id] else score.user.name)
        rounds[score.game_id] = (*rounds.get(score.game_id, ()), over)
    return rounds


SOURCES: tuple[Source, ...] = (OutboxSource(), MovesSource())


def last_looked(user: User) -> datetime:
    return user.notices_seen_at or user.date_joined


def notices(user: User, now: datetime | None = None) -> dict[str, Any]:
    """The page: the notices since the last look (new) and the week before it, newest first."""
    now = now or timezone.now()
    seen = last_looked(user)
    since = min(seen, now - EARLIER)
    items = sorted(
        (notice for source in SOURCES for notice in source.items(user, since)),
        key=lambda notice: notice.at,
        reverse=True,
    )
    return {
        "new": [notice for notice in items if notice.at > seen],
        "earlier": [notice for notice in items if notice.at <= seen],
        "seen": seen,
    }


def _count_rows(user_id: int, since: datetime) -> QuerySet[User]:
    """The bar's count as one row: a column per source."""
    counts = {
        f"n{i}": Coalesce(source.count(user_id, since), 0) for i, source in enumerate(SOURCES)
    }
    return User.objects.filter(pk=user_id).annotate(**counts).values_list(*counts)


# The bar's count is on every page, and Django takes 6 to 8 ms to build and compile its query of
# subqueries, against well under 2 ms to run it: it is compiled once per process, with these
# marks in the places of the player's id and last look, which each page then fills in.
_SOMEONE = -42_424_242  # no one's id
_SOMETIME = datetime(1901, 2, 3, 4, 5, 6, 424242, tzinfo=UTC)  # no one's last look


def _look(since: datetime, connection: BaseDatabaseWrapper) -> Any:
    """A last look as the database is sent it."""
    return Move._meta.get_field("created_at").get_db_prep_value(since, connection)


@cache
def _count_compiled(alias: str, vendor: str) -> tuple[str, tuple[Any, ...], list[int], list[int]]:
    """The SQL, its parameters, and where in them the player's id and the last look go."""
    sql, params = _count_rows(_SOMEONE, _SOMETIME).query.sql_with_params()
    look = _look(_SOMETIME, connections[alias])
    players = [i for i, param in enumerate(params) if param == _SOMEONE]
    looks = [i for i, param in enumerate(params) if param == look]
    if not players or not looks:
        raise RuntimeError("the bar's count is compiled without a place for the player or look")
    return sql, tuple(params), players, looks


def notice_count(user: User) -> int:
    """How many notices came since the last look (the bar's badge): one query."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql, params, players, looks = _count_compiled(connection.alias, connection.vendor)
    filled = list(params)
    look = _look(last_looked(user), connection)
    for i in players:
        filled[i] = user.pk
    for i in looks:
        filled[i] = look
    with connection.cursor() as cursor:
        cursor.execute(sql, filled)
        row = cursor.fetchone()
    return sum(row or ())
