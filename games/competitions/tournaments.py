"""Tournaments: a host opens one (rules, tables of N, rounds, a start time); players join until
it starts; each round seats the players by standing (games/pairing.py), every
table a game the site seats and starts (services.game_create_seated), short tables filled by
bots if the host allows them, else a bye; the next round begins when the last table of the round
is finished, and after the last round the standing is final and the winner named.

Race-safety: every write takes the tournament's row lock first (`lock_tournament`), so two
tables ending at once begin the next round once: the second sees the round already over. The
lock comes before any game's (games/locking.py's order): a round's games are created under it."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User

from .. import services
from ..engine import LEVELS, Rules
from ..errors import GameError
from ..guards import require_may_play
from ..models import (
    QUICK_PRESETS,
    TIME_PER_MOVE_DAYS,
    TOURNAMENT_MAX_PLAYERS,
    TOURNAMENT_MAX_ROUNDS,
    TOURNAMENT_SEATS,
    Game,
    Notification,
    Rating,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from ..notifications.outbox import notification_queue
from ..pairing import seat
from ..ratings import display_rating
from ..selectors.tournaments import met_pairs, standings, tournament_of_game, tournament_seats
from .records import LIMIT_CHOICES, require_record

MAX_DAYS_AHEAD = 90
MAX_OPEN_HOSTED = 5  # tournaments a host may have open for entries at once
NAME_MAX_LENGTH = 80


def lock_tournament(tournament_id) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=int(tournament_id))
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise GameError(_("There is no such tournament."), status=404) from None


@transaction.atomic
def tournament_create(
    *,
    host: User,
    name: str,
    preset: str,
    seats_per_table: int,
    rounds: int,
    time_per_move_days: int | None,
    starts_at: datetime,
    bot_level: str = "",
    max_abandoned_percent: int | None = None,
) -> Tournament:
    """Open a tournament; its host is its first player (and may leave it before the start)."""
    require_may_play(host)
    if max_abandoned_percent not in (None, *LIMIT_CHOICES):
        raise GameError(_("Choose a limit from the list."))
    name = " ".join((name or "").split())
    if not name or len(name) > NAME_MAX_LENGTH:
        raise GameError(_("Give the tournament a name of at most 80 characters."))
    if preset not in QUICK_PRESETS:
        raise GameError(_("Choose rules from the list."))
    if seats_per_table not in TOURNAMENT_SEATS:
        raise GameError(_("Choose tables of 2, 3 or 4 players."))
    if not 1 <= rounds <= TOURNAMENT_MAX_ROUNDS:
        raise GameError(_("Choose from 1 to 9 rounds."))
    if time_per_move_days is not None and time_per_move_days not in TIME_PER_MOVE_DAYS:
        raise GameError(_("Choose a time per move from the list."))
    if bot_level and bot_level not in LEVELS:
        raise GameError(_("There is no such bot."))
    now = timezone.now()
    if not now < starts_at <= now + timedelta(days=MAX_DAYS_AHEAD):
        raise GameError(_("Choose a start in the next 90 days."))
    if host.is_bot:
        raise GameError(_("Bots join through the game's creator."), status=403)
    open_ = Tournament.objects.filter(created_by=host, status=Tournament.Status.OPEN)
    if open_.count() >= MAX_OPEN_HOSTED:
        raise GameError(
            _("You already host %(n)d tournaments open for entries.") % {"n": MAX_OPEN_HOSTED},
            status=409,
        )
    tournament = Tournament.objects.create(
        name=name,
        created_by=host,
        preset=preset,
        seats_per_table=seats_per_table,
        rounds=rounds,
        time_per_move_days=time_per_move_days,
        starts_at=starts_at,
        bot_level=bot_level,
        max_abandoned_percent=max_abandoned_percent,
    )
    TournamentEntry.objects.create(tournament=tournament, user=host)
    return tournament


def _require_open(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.OPEN:
        raise GameError(_("This tournament has already started."), status=409)


@transaction.atomic
def tournament_join(*, tournament_id, user: User) -> TournamentEntry:
    require_may_play(user)
    tournament = lock_tournament(tournament_id)
    _require_open(tournament)
    if user.is_bot:
        raise GameError(_("Bots join through the game's creator."), status=403)
    require_record(user, tournament.max_abandoned_percent)
    if tournament.entries.count() >= TOURNAMENT_MAX_PLAYERS:
        raise GameError(_("This tournament is full."), status=409)
    try:
        with transaction.atomic():
            return TournamentEntry.objects.create(tournament=tournament, user=user)
    except IntegrityError:
        raise GameError(_("You are already in this tournament."), status=409) from None


@transaction.atomic
def tournament_leave(*, tournament_id, user: User) -> None:
    tournament = lock_tournament(tournament_id)
    _require_open(tournament)
    deleted, _rows = TournamentEntry.objects.filter(tournament=tournament, user=user).delete()
    if not deleted:
        raise GameError(_("You are not in this tournament."), status=409)


def min_players(tournament: Tournament) -> int:
    """The people a tournament needs to start: a table's worth, or two when bots fill tables."""
    return 2 if tournament.bot_level else tournament.seats_per_table


@transaction.atomic
def tournament_start(*, tournament_id, user: User | None = None) -> Tournament:
    """Start now: by its host (`user`) once enough have joined, or by the sweep at its start
    time (`user` None), which cancels it if too few have."""
    tournament = lock_tournament(tournament_id)
    if user is not None and user.pk != tournament.created_by_id:
        raise GameError(_("Only the host can start the tournament."), status=403)
    _require_open(tournament)
    now = timezone.now()
    entries = list(tournament.entries.all())
    if len(entries) < min_players(tournament):
        if user is not None:
            raise GameError(
                _("At least %(n)d players must join first.") % {"n": min_players(tournament)},
                status=409,
            )
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
        return tournament
    ratings = dict(
        Rating.objects.filter(user_id__in=[e.user_id for e in entries]).values_list(
            "user_id", "ordinal"
        )
    )
    for entry in entries:  # the seeding: a newcomer counts as 1000 (display_rating(0))
        entry.rating = display_rating(ratings.get(entry.user_id, 0.0))
    TournamentEntry.objects.bulk_update(entries, ["rating"])
    tournament.status = Tournament.Status.PLAYING
    tournament.started_at = now
    _round_begin(tournament, number=1)
    return tournament


def round_seating(tournament: Tournament) -> tuple[list[list[User]], User | None]:
    """The next round's tables (players best placed first) and its bye, if any: by standing,
    round 1 by rating (before it everyone has 0 points, and rating is the standing's last
    tie-break); a bye with two seats, an odd count and no bots, to the lowest placed who has
    had none. Four queries, however many players."""
    seats = tournament_seats(tournament.pk)
    lines = standings(tournament, seats=seats)
    order = [line.user for line in lines]
    bye = None
    if tournament.seats_per_table == 2 and len(order) % 2 and not tournament.bot_level:
        had = {line.user.pk for line in lines if line.byes}
        bye = next((u for u in reversed(order) if u.pk not in had), order[-1])
        order.remove(bye)
    by_id = {user.pk: user for user in order}
    tables = seat([u.pk for u in order], tournament.seats_per_table, met_pairs(seats))
    return [[by_id[pk] for pk in table] for table in tables], bye


def _round_begin(tournament: Tournament, *, number: int) -> TournamentRound:
    """Seat round `number` (round_seating) and start a game at each table."""
    tables, bye = round_seating(tournament)
    round_ = TournamentRound.objects.create(tournament=tournament, number=number)
    rules = Rules(rounds=tournament.preset)
    for index, players in enumerate(tables, 1):
        if tournament.bot_level and len(players) < tournament.seats_per_table:
            players += services.bot_accounts(
                bot_kind=tournament.bot_level, count=tournament.seats_per_table - len(players)
            )
        shift = (number - 1) % len(players)  # who deals first moves round by round
        game = services.game_create_seated(
            players=players[shift:] + players[:shift],
            rules=rules,
            time_per_move_days=tournament.time_per_move_days,
        )
        TournamentTable.objects.create(round=round_, number=index, game=game)
    if bye is not None:
        TournamentTable.objects.create(round=round_, number=len(tables) + 1, bye=bye)
    tournament.current_round = number
    tournament.save()
    return round_


def _round_over(tournament: Tournament) -> TournamentRound | None:
    """The current round, if every table of it is finished and it is not marked so yet."""
    round_ = tournament.round_set.filter(number=tournament.current_round).first()
    if round_ is None or round_.finished_at is not None:
        return None
    playing = round_.tables.filter(game__isnull=False).exclude(
        Q(game__status=Game.Status.FINISHED) | Q(game__status=Game.Status.CANCELLED)
    )
    return None if playing.exists() else round_


@transaction.atomic
def tournament_round_check(*, tournament_id) -> bool:
    """If the current round's tables are all finished, begin the next round or finish the
    tournament; whether it did (safe to run twice, and at once: the row lock)."""
    tournament = lock_tournament(tournament_id)
    if tournament.status != Tournament.Status.PLAYING:
        return False
    round_ = _round_over(tournament)
    if round_ is None:
        return False
    round_.finished_at = timezone.now()
    round_.save(update_fields=["finished_at"])
    if round_.number < tournament.rounds:
        _round_begin(tournament, number=round_.number + 1)
    else:
        _tournament_finish(tournament)
    return True


def tournament_game_finished(*, game_id: int) -> bool:
    """A game has ended (its task, queued by services.game_finish): if it was a tournament's
    table, see whether its round is over."""
    table = tournament_of_game(game_id)
    if table is None:
        return False
    return tournament_round_check(tournament_id=table.round.tournament_id)


def _tournament_finish(tournament: Tournament) -> None:
    """The final standing: places written, the winner named, each person told their place."""
    lines = standings(tournament)
    entries = {e.user_id: e for e in tournament.entries.all()}
    for line in lines:
        entries[line.user.pk].place = line.place
    TournamentEntry.objects.bulk_update(entries.values(), ["place"])
    now = timezone.now()
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.winner = lines[0].user if lines else None
    tournament.save()
    last_games = dict(
        TournamentTable.objects.filter(round__tournament=tournament, game__isnull=False)
        .order_by("round__number")
        .values_list("game__seats__user_id", "game_id")
    )  # each player's last table: the notice's game
    games = Game.objects.in_bulk(set(last_games.values()))
    for line in lines:
        if line.user.pk in last_games and not line.user.is_bot:
            notification_queue(
                user=line.user,
                kind=Notification.Kind.TOURNAMENT,
                game=games[last_games[line.user.pk]],
            )


def tournaments_sweep(*, now: datetime | None = None) -> dict:
    """Start the tournaments whose time has come (or cancel those too few joined), and look at
    every playing tournament's current round, so that a lost task never leaves one waiting
    (beat, every few minutes). Figures of what it did."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=Tournament.Status.OPEN, starts_at__lte=now)
    started = cancelled = 0
    for tournament_id in due.values_list("pk", flat=True):
        try:
            tournament = tournament_start(tournament_id=tournament_id)
        except GameError:  # started by its host meanwhile
            continue
        started += tournament.status == Tournament.Status.PLAYING
        cancelled += tournament.status == Tournament.Status.CANCELLED
    playing = Tournament.objects.filter(status=Tournament.Status.PLAYING)
    advanced = sum(
        tournament_round_check(tournament_id=pk) for pk in playing.values_list("pk", flat=True)
    )
    return {"started": started, "cancelled": cancelled, "advanced": advanced}
