"""Quick play: a player's seek seats them at once in a waiting quick-play game of the same rules
preset and time per move (and seat count, unless they take any) whose seated players' ratings are
near theirs; else it opens one that later seekers are matched into. The game starts by itself when
its last seat is taken (services.game_start_if_full), which marks its seeks matched.

Race-safety: every seek of one pool (preset, time per move) first takes a PostgreSQL advisory
lock on that pool for the rest of its transaction, so two seekers pressing at once are matched one
after the other: the second sees the game the first opened. The window of ratings (docs/playing.md):
±150 points, 100 more per hour the game has waited, no limit once it has waited a day."""

from __future__ import annotations

import zlib
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User

from .. import services
from ..engine import Rules
from ..errors import GameError
from ..guards import require_may_play
from ..locking import lock_game
from ..models import QUICK_PRESETS, TIME_PER_MOVE_DAYS, Game, Rating, Seek
from ..ratings import display_rating
from .records import require_record

QUICK_SEATS = (2, 3, 4)
WINDOW_POINTS = 150
WINDOW_POINTS_PER_HOUR = 100
WINDOW_UNLIMITED_AFTER = timedelta(days=1)
NEW_GAME_SEATS_FOR_ANY = 2  # a seeker of any seat count opens the quickest table to fill
MATCH_CANDIDATES = 200  # the oldest waiting games of a pool looked at, at most
POOL_LOCK_NAMESPACE = 31_001  # pg_advisory_xact_lock's first key: quick play's pools


def preset_rules(preset: str) -> Rules:
    return Rules(rounds=preset)


def rating_window(*, waited: timedelta) -> float:
    """How far from a waiting game's players a seeker's rating may be, after `waited`."""
    if waited >= WINDOW_UNLIMITED_AFTER:
        return float("inf")
    return WINDOW_POINTS + WINDOW_POINTS_PER_HOUR * waited.total_seconds() / 3600


def _rating_of(ratings: dict[int, int], user_id: int) -> int:
    return ratings.get(user_id, display_rating(0.0))  # a newcomer's 1000


def _pool_lock(preset: str, time_per_move_days: int | None) -> None:
    """One seek of the pool at a time. SQLite (the embedded default) has no advisory locks and
    needs none: its transactions begin IMMEDIATE (config/settings/base.py), one writer at a time."""
    if connection.vendor != "postgresql":
        return
    key = zlib.crc32(f"{preset}:{time_per_move_days}".encode()) - 2**31  # a signed int4
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [POOL_LOCK_NAMESPACE, key])


def _matches(
    *, player: User, seats: int | None, preset: str, time_per_move_days: int | None, now: datetime
) -> list[Game]:
    """The waiting quick games of the pool that fit the seeker, oldest (lowest id) first."""
    games = (
        Game.objects.filter(
            quick=True,
            status=Game.Status.OPEN,
            rules=preset_rules(preset).to_dict(),
            time_per_move_days=time_per_move_days,
        )
        .exclude(seats__user=player)
        .prefetch_related("seats")
        .order_by("pk")
    )
    if seats is not None:
        games = games.filter(seat_count=seats)
    games = [g for g in games[:MATCH_CANDIDATES] if len(g.seats.all()) < g.seat_count]
    seated = {seat.user_id for game in games for seat in game.seats.all()}
    ratings = {
        r.user_id: display_rating(r.ordinal)
        for r in Rating.objects.filter(user_id__in=seated | {player.pk})
    }
    mine = _rating_of(ratings, player.pk)
    return [
        game
        for game in games
        if all(
            abs(_rating_of(ratings, s.user_id) - mine)
            <= rating_window(waited=now - game.created_at)
            for s in game.seats.all()
        )
    ]


def _first_still_open(games: list[Game], player: User) -> Game | None:
    """The first of `games` still waiting with a seat free once locked: the pool lock keeps other
    seekers out, but a player may have left (and so cancelled) a game since it was read."""
    for candidate in games:
        game = lock_game(candidate.pk)
        seated = set(game.seats.values_list("user_id", flat=True))
        still_open = game.status == Game.Status.OPEN and len(seated) < game.seat_count
        if still_open and player.pk not in seated:
            return game
    return None


@transaction.atomic
def seek_create(
    *, player: User, seats: int | None, preset: str, time_per_move_days: int | None
) -> Seek:
    """Seat the player in a matching quick game, or open one; the seek says which."""
    if seats is not None and seats not in QUICK_SEATS:
        raise GameError(_("Choose 2, 3 or 4 players, or any."))
    if preset not in QUICK_PRESETS:
        raise GameError(_("Choose rules from the list."))
    if time_per_move_days is not None and time_per_move_days not in TIME_PER_MOVE_DAYS:
        raise GameError(_("Choose a time per move from the list."))
    if player.is_bot:
        raise GameError(_("Bots join through the game's creator."), status=403)
    require_may_play(player)
    require_record(player, settings.QUICK_PLAY_MAX_ABANDONED_PERCENT)
    _pool_lock(preset, time_per_move_days)
    duplicate = GameError(_("You are already looking for a game like this one."), status=409)
    if Seek.objects.filter(
        player=player,
        status=Seek.Status.OPEN,
        seats=seats,
        preset=preset,
        time_per_move_days=time_per_move_days,
    ).exists():
        raise duplicate
    matches = _matches(
        player=player,
        seats=seats,
        preset=preset,
        time_per_move_days=time_per_move_days,
        now=timezone.now(),
    )
    game = _first_still_open(matches, player)
    try:
        with transaction.atomic():
            seek = Seek.objects.create(
                player=player, seats=seats, preset=preset, time_per_move_days=time_per_move_days
            )
    except IntegrityError:  # the constraint's word, should the check above ever miss one
        raise duplicate from None
    if game is None:
        game = services.game_create(
            creator=player,
            rules=preset_rules(preset),
            seat_count=seats or NEW_GAME_SEATS_FOR_ANY,
            time_per_move_days=time_per_move_days,
            quick=True,
        )
    seek.game = game
    seek.save(update_fields=["game"])
    if game.created_by_id != player.pk:
        services.game_join(game_id=game.pk, user=player)  # starts it, if it fills it
    seek.refresh_from_db(fields=["status"])
    return seek


@transaction.atomic
def seek_cancel(*, seek_id: int, player: User) -> Seek:
    """Stop looking: the player leaves the quick game the seek waits in (cancelled if then
    empty). A matched seek is a started game: resign there instead."""
    seek = Seek.objects.filter(pk=seek_id, player=player).first()
    if seek is None:
        raise GameError(_("There is no such search."), status=404)
    if seek.game_id is not None:
        game = lock_game(seek.game_id)
        seek.refresh_from_db()
        if seek.status == Seek.Status.OPEN and game.status == Game.Status.OPEN:
            services.game_leave(game_id=game.pk, user=player)  # marks the seek cancelled
            seek.refresh_from_db()
    if seek.status != Seek.Status.CANCELLED:
        if seek.status != Seek.Status.OPEN:
            raise GameError(_("This search has already found its game."), status=409)
        seek.status = Seek.Status.CANCELLED
        seek.save(update_fields=["status"])
    return seek
