"""Leagues: a league's seasons of games among its members, in divisions by rating, each member
meeting every other member of their division (docs/playing.md, Leagues).

A season opens for players (registration) and starts at its `starts_at`: its members are put in
divisions (the returning by last season's division and movement, then newcomers by rating; bots
fill a short division if the league allows), each division gets its plan of tables (every pair
meets once), grouped into waves in which nobody plays twice. The site creates and starts a wave's
games once every game of the waves before it has ended. When every division's last game has
ended, the season finishes: places, who moves up and down, the next season opened, and each
member mailed their result with a one-click opt-in.

Everything here is idempotent and race-safe: a division's waves are created under its row's lock
(select_for_update), a season starts and finishes under its row's lock, and each re-checks the
state it found. Nothing waits on a message: a game's end queues the task game_finished (by name,
after the commit), and the beat sweep (leagues_sweep) catches up on whatever was lost."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User

from .. import services
from ..engine import Rules
from ..errors import GameError
from ..guards import require_may_play
from ..models import (
    QUICK_PRESETS,
    TIME_PER_MOVE_DAYS,
    Division,
    Game,
    League,
    LeagueEntry,
    LeagueFixture,
    LeagueSeason,
    Notification,
    Rating,
    Seat,
)
from ..models.leagues import DIVISION_SIZE_MAX, DIVISION_SIZE_MIN
from ..notifications.optin import optin_read
from ..notifications.outbox import notification_queue
from ..oncommit import enqueue_on_commit
from ..pairing import division_sizes, fixture_plan
from ..ratings import display_rating
from ..selectors.leagues import division_fixtures, division_standings, fixture_done
from .records import LIMIT_CHOICES, require_record

FILL_BOT_KIND = "medium"
NAME_MAX = 60


# -- creating and joining ----------------------------------------------------------------------


@transaction.atomic
def league_create(
    *,
    user: User,
    name: str,
    preset: str,
    seats_per_table: int = 2,
    time_per_move_days: int = 3,
    division_size: int = 6,
    movers: int = 2,
    bots_fill: bool = True,
    max_abandoned_percent: int | None = None,
    registration_days: int = 7,
) -> League:
    """A new league and its first season, open for players for `registration_days`; its creator
    is its first member."""
    require_may_play(user)
    if max_abandoned_percent not in (None, *LIMIT_CHOICES):
        raise GameError(_("Choose a limit from the list."))
    name = " ".join((name or "").split())
    if user.is_bot:
        raise GameError(_("Bots join through the game's creator."), status=403)
    if not name or len(name) > NAME_MAX:
        raise GameError(_("Give the league a name of at most 60 characters."))
    if preset not in QUICK_PRESETS:
        raise GameError(_("Choose rules from the list."))
    if seats_per_table not in (2, 3):
        raise GameError(_("Choose 2 or 3 players at a table."))
    if time_per_move_days not in TIME_PER_MOVE_DAYS:
        raise GameError(_("Choose a time per move from the list."))
    if not DIVISION_SIZE_MIN <= division_size <= DIVISION_SIZE_MAX:
        raise GameError(_("A division has 4 to 8 players."))
    if movers not in (1, 2):
        raise GameError(_("One or two players of a division move up and down."))
    if not 1 <= registration_days <= 30:
        raise GameError(_("Players can join for 1 to 30 days."))
    if League.objects.filter(name__iexact=name).exists():
        raise GameError(_("There is a league of that name already."), status=409)
    try:
        with transaction.atomic():
            league = League.objects.create(
                name=name,
                created_by=user,
                preset=preset,
                seats_per_table=seats_per_table,
                time_per_move_days=time_per_move_days,
                division_size=division_size,
                movers=movers,
                bots_fill=bots_fill,
                registration_days=registration_days,
                max_abandoned_percent=max_abandoned_percent,
            )
    except IntegrityError:
        raise GameError(_("There is a league of that name already."), status=409) from None
    season = LeagueSeason.objects.create(
        league=league, number=1, starts_at=timezone.now() + timedelta(days=registration_days)
    )
    LeagueEntry.objects.create(season=season, user=user)
    return league


def _lock_season(season_id: int) -> LeagueSeason:
    season = (
        LeagueSeason.objects.select_for_update()
        .select_related("league")
        .filter(pk=season_id)
        .first()
    )
    if season is None:
        raise GameError(_("There is no such league."), status=404)
    return season


def _open_season(league_id: int) -> LeagueSeason:
    """The league's season open for players, locked."""
    season_id = (  # `league__pk`: an id past a 64-bit integer finds nothing (league_id: 500)
        LeagueSeason.objects.filter(league__pk=league_id)
        .exclude(status=LeagueSeason.Status.FINISHED)
        .values_list("pk", flat=True)
        .first()
    )
    if season_id is None:
        if not League.objects.filter(pk=league_id).exists():
            raise GameError(_("There is no such league."), status=404)
        raise GameError(_("This league has no season open for players now."), status=409)
    season = _lock_season(season_id)
    if season.status != LeagueSeason.Status.REGISTRATION:
        raise GameError(_("This season has started: join the next one."), status=409)
    return season


@transaction.atomic
def league_join(*, league_id: int, user: User) -> LeagueEntry:
    """Enter the league's season open for players (bots too: a league's own bots)."""
    require_may_play(user)
    season = _open_season(league_id)
    if user.is_bot and not user.is_site_bot:  # a player's own bot plays no league
        raise GameError(_("Bots join through the game's creator."), status=403)
    if LeagueEntry.objects.filter(season=season, user=user).exists():
        raise GameError(_("You are already in this season."), status=409)
    limit = League.objects.values_list("max_abandoned_percent", flat=True).get(pk=league_id)
    require_record(user, limit)
    return LeagueEntry.objects.create(season=season, user=user)


@transaction.atomic
def league_optin(*, token: str) -> LeagueEntry:
    """The one click in a season's result mail: enter its player in the league's next season."""
    found = optin_read(token)
    entry = (
        LeagueEntry.objects.select_related("season").filter(pk=found[1], user_id=found[0]).first()
        if found
        else None
    )
    if entry is None:
        raise GameError(_("This link is not valid."), status=404)
    season = _open_season(entry.season.league_id)
    existing = LeagueEntry.objects.filter(season=season, user_id=entry.user_id).first()
    if existing is not None:
        return existing
    return LeagueEntry.objects.create(season=season, user_id=entry.user_id)


@transaction.atomic
def league_leave(*, league_id: int, user: User) -> LeagueEntry:
    """Leave the league's current season: before it starts, the entry goes; during it, the
    player forfeits the rest (their games in play resigned, their finished games stand)."""
    entry = (
        LeagueEntry.objects.filter(season__league__pk=league_id, user=user)
        .exclude(season__status=LeagueSeason.Status.FINISHED)
        .select_related("season")
        .first()
    )
    if entry is None:
        raise GameError(_("You are not in this season."), status=404)
    if entry.season.status == LeagueSeason.Status.REGISTRATION:
        season = _lock_season(entry.season_id)
        if season.status == LeagueSeason.Status.REGISTRATION:
            entry.delete()
            return entry
    if entry.status == LeagueEntry.Status.FORFEITED:
        raise GameError(_("You have already left this season."), status=409)
    # The games first, then the division: the order a drop for timeouts locks them in.
    games = Seat.objects.filter(
        user=user,
        resigned=False,
        game__status=Game.Status.ACTIVE,
        game__league_fixture__division_id=entry.division_id,
    ).values_list("game_id", flat=True)
    for game_id in list(games):
        services.game_resign(game_id=game_id, user=user)
    division = Division.objects.select_for_update().get(pk=entry.division_id)
    entry.refresh_from_db()
    if entry.status == LeagueEntry.Status.FORFEITED:  # another request, a moment before
        raise GameError(_("You have already left this season."), status=409)
    entry_forfeit(entry=entry, reason=LeagueEntry.ForfeitReason.LEFT)
    _queue_advance(division.pk)
    return entry


def entry_forfeit(*, entry: LeagueEntry, reason: str) -> None:
    """The member forfeits the rest of the season, recorded: out of every table not yet played
    (an unplayed seat ranks last there). The caller holds the division's lock."""
    entry.status = LeagueEntry.Status.FORFEITED
    entry.forfeit_reason = reason
    entry.forfeited_at = timezone.now()
    entry.save(update_fields=["status", "forfeit_reason", "forfeited_at"])
    unplayed = LeagueFixture.objects.filter(division_id=entry.division_id, game__isnull=True)
    changed = []
    for fixture in unplayed:
        if entry.user_id in fixture.players:
            fixture.players = [p for p in fixture.players if p != entry.user_id]
            fixture.absent = [*fixture.absent, entry.user_id]
            changed.append(fixture)
    LeagueFixture.objects.bulk_update(changed, ["players", "absent"])


def _queue_advance(division_id: int) -> None:
    enqueue_on_commit("games.tasks.league_division_advance", (division_id,))


# -- a season's start ------------------------------------------------------------------------


def _ratings(user_ids: list[int]) -> dict[int, int]:
    found = {
        r.user_id: display_rating(r.ordinal) for r in Rating.objects.filter(user_id__in=user_ids)
    }
    return {u: found.get(u, display_rating(0.0)) for u in user_ids}  # a newcomer: 1000


def _seeding(season: LeagueSeason, entries: list[LeagueEntry]) -> list[LeagueEntry]:
    """Members in seeding order: those who played the last season by the level they earned
    (their division moved by their movement), then their place; newcomers after, by rating."""
    before = {
        e.user_id: e
        for e in LeagueEntry.objects.filter(
            season__league_id=season.league_id, season__number=season.number - 1
        ).select_related("division")
    }
    step = {"up": -1, "down": 1}

    def key(entry: LeagueEntry) -> tuple:
        last = before.get(entry.user_id)
        if last is None or last.division is None:
            return (1, 0, 0, -(entry.seed_rating or 0), entry.user_id)
        level = last.division.level + step.get(last.movement, 0)
        return (0, level, last.place or 0, -(entry.seed_rating or 0), entry.user_id)

    return sorted(entries, key=key)


def _fill_with_bots(season: LeagueSeason, count: int) -> None:
    """Bots enough for whole divisions of the league's size (numbered bot accounts, each once a
    season)."""
    size = season.league.division_size
    short = max(size, math.ceil(count / size) * size) - count
    seated = set(
        LeagueEntry.objects.filter(season=season, user__is_bot=True).values_list(
            "user_id", flat=True
        )
    )
    bots = services.bot_accounts(bot_kind=FILL_BOT_KIND, count=short + len(seated))
    free = [bot for bot in bots if bot.pk not in seated][:short]
    LeagueEntry.objects.bulk_create(LeagueEntry(season=season, user=bot) for bot in free)


@transaction.atomic
def season_start(*, season_id: int, now: datetime | None = None) -> bool:
    """Start the season if its time came: divisions, their plans, the first wave of games.
    With fewer than two members (or fewer than four, bots not filling), it waits another
    registration period. Returns whether it started."""
    now = now or timezone.now()
    season = _lock_season(season_id)
    if season.status != LeagueSeason.Status.REGISTRATION or season.starts_at > now:
        return False
    league = season.league
    count = LeagueEntry.objects.filter(season=season).count()
    if league.bots_fill and count >= 1:
        _fill_with_bots(season, count)
    entries = list(LeagueEntry.objects.filter(season=season))
    if len(entries) < (2 if league.bots_fill else DIVISION_SIZE_MIN):
        season.starts_at = now + timedelta(days=league.registration_days)
        season.save(update_fields=["starts_at"])
        return False
    ratings = _ratings([e.user_id for e in entries])
    for entry in entries:
        entry.seed_rating = ratings[entry.user_id]
    ordered = iter(_seeding(season, entries))
    fixtures = []
    sizes = division_sizes(len(entries), league.division_size, smallest=DIVISION_SIZE_MIN)
    for level, size in enumerate(sizes, 1):
        division = Division.objects.create(season=season, level=level)
        members = [next(ordered) for _ in range(size)]
        for entry in members:
            entry.division = division
        plan = fixture_plan([e.user_id for e in members], league.seats_per_table)
        for wave, tables in enumerate(plan, 1):
            fixtures += [
                LeagueFixture(division=division, wave=wave, players=list(t)) for t in tables
            ]
    LeagueEntry.objects.bulk_update(entries, ["division", "seed_rating"])
    LeagueFixture.objects.bulk_create(fixtures)
    season.status, season.started_at = LeagueSeason.Status.PLAYING, now
    season.save(update_fields=["status", "started_at"])
    for division in season.divisions.all():
        division_advance(division_id=division.pk)
    return True


@transaction.atomic
def league_start_now(*, league_id: int, user: User) -> LeagueSeason:
    """Start the league's season in registration now, by its host or the staff (as a
    tournament's host may): GameError 403 for anyone else, 409 when too few have joined for
    the season to start (it is left as it was)."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise GameError(_("There is no such league."), status=404)
    if user.pk != league.created_by_id and not user.is_staff:
        raise GameError(_("Only the league's host can start its season."), status=403)
    season = _open_season(league_id)
    joined = LeagueEntry.objects.filter(season=season).count()
    needed = 1 if league.bots_fill else DIVISION_SIZE_MIN
    if joined < needed:
        raise GameError(_("At least %(n)d players must join first.") % {"n": needed}, status=409)
    now = timezone.now()
    LeagueSeason.objects.filter(pk=season.pk).update(starts_at=now)
    if not season_start(season_id=season.pk, now=now):
        raise GameError(_("The season cannot start yet."), status=409)
    season.refresh_from_db()
    return season


# -- waves and forfeits ----------------------------------------------------------------------


@transaction.atomic
def division_advance(*, division_id: int) -> int:
    """Bring the division up to date, under its lock: a member dropped from one of its games
    for timeouts forfeits the rest; the next wave's games are created once every game of the
    waves before has ended; the season finishes once every division is through. Returns how
    many games it created. Safe to run any number of times, at once."""
    division = (
        Division.objects.select_for_update()
        .select_related("season__league")
        .filter(pk=division_id)
        .first()
    )
    if division is None or division.season.status != LeagueSeason.Status.PLAYING:
        return 0
    _forfeit_dropped(division)
    fixtures, _seats = division_fixtures(division)
    pending = [f for f in fixtures if not fixture_done(f, f.game.status if f.game_id else None)]
    if not pending:
        season_finish_if_done(season_id=division.season_id)
        return 0
    wave = min(f.wave for f in pending)
    to_create = [f for f in pending if f.wave == wave and f.game_id is None]
    if not to_create:
        return 0
    league = division.season.league
    users = User.objects.in_bulk({u for f in to_create for u in f.players})
    for fixture in to_create:
        fixture.game = services.game_create_seated(
            players=[users[u] for u in fixture.players],
            rules=Rules(rounds=league.preset),
            time_per_move_days=league.time_per_move_days,
        )
    LeagueFixture.objects.bulk_update(to_create, ["game"])
    return len(to_create)


def _forfeit_dropped(division: Division) -> None:
    dropped = Seat.objects.filter(
        game__league_fixture__division=division,
        dropped=True,
        user__league_entries__division=division,
        user__league_entries__status=LeagueEntry.Status.PLAYING,
    ).values_list("user_id", flat=True)
    for entry in LeagueEntry.objects.filter(division=division, user_id__in=list(dropped)):
        entry_forfeit(entry=entry, reason=LeagueEntry.ForfeitReason.DROPPED)
    # A member whose account is gone (deleted, deactivated) is seated at no new table.
    gone = LeagueEntry.objects.filter(
        division=division, status=LeagueEntry.Status.PLAYING, user__is_active=False
    )
    for entry in gone:
        entry_forfeit(entry=entry, reason=LeagueEntry.ForfeitReason.LEFT)


@transaction.atomic
def league_game_finished(*, game_id: int) -> int:
    """A game has ended (or a seat was dropped): advance its division if it is a league's."""
    division_id = (
        LeagueFixture.objects.filter(game_id=game_id).values_list("division_id", flat=True).first()
    )
    return division_advance(division_id=division_id) if division_id else 0


# -- a season's end --------------------------------------------------------------------------


def _movement(place: int, size: int, level: int, last_level: int, movers: int, forfeited: bool):
    M = LeagueEntry.Movement
    if level > 1 and place <= movers and not forfeited:
        return M.UP
    if level < last_level and (place > size - movers or forfeited):
        return M.DOWN
    return M.STAY


@transaction.atomic
def season_finish_if_done(*, season_id: int, now: datetime | None = None) -> bool:
    """Finish the season once every table of every division is through: final places and
    movement, the next season opened (the season's bots entered at once), and every person
    mailed their result with the one-click opt-in. Returns whether it finished now."""
    now = now or timezone.now()
    season = _lock_season(season_id)
    if season.status != LeagueSeason.Status.PLAYING:
        return False
    divisions = list(season.divisions.order_by("level"))
    tables = [(d, division_standings(d)) for d in divisions]
    for division, _rows in tables:
        fixtures, _seats = division_fixtures(division)
        if not all(fixture_done(f, f.game.status if f.game_id else None) for f in fixtures):
            return False
    league = season.league
    entries = []
    for division, rows in tables:
        for row in rows:
            row.entry.place = row.place
            row.entry.movement = _movement(
                row.place,
                len(rows),
                division.level,
                len(divisions),
                league.movers,
                row.entry.status == LeagueEntry.Status.FORFEITED,
            )
            entries.append(row.entry)
    LeagueEntry.objects.bulk_update(entries, ["place", "movement"])
    season.status, season.finished_at = LeagueSeason.Status.FINISHED, now
    season.save(update_fields=["status", "finished_at"])
    following = LeagueSeason.objects.create(
        league=league,
        number=season.number + 1,
        starts_at=now + timedelta(days=league.registration_days),
    )
    LeagueEntry.objects.bulk_create(
        LeagueEntry(season=following, user=e.user)
        for e in entries
        if e.user.is_bot and e.status == LeagueEntry.Status.PLAYING
    )
    for entry in entries:
        if not entry.user.is_bot:
            notification_queue(
                user=entry.user, kind=Notification.Kind.LEAGUE_SEASON, league_entry=entry
            )
    return True


# -- the sweep -------------------------------------------------------------------------------


def leagues_sweep(*, now: datetime | None = None) -> dict:
    """Beat's catch-up, every few minutes: seasons whose start came are started, every playing
    division advanced (forfeits, due waves, a season's end). Each step takes its own lock and
    re-checks, so two sweeps at once, or a sweep and a game's end, do each thing once."""
    now = now or timezone.now()
    started = sum(
        season_start(season_id=pk, now=now)
        for pk in LeagueSeason.objects.filter(
            status=LeagueSeason.Status.REGISTRATION, starts_at__lte=now
        ).values_list("pk", flat=True)
    )
    created = sum(division_advance(division_id=pk) for pk in divisions_due())
    return {"started": started, "games": created}


def divisions_due() -> list[int]:
    """The playing divisions that may have something to do (one query, whatever their number):
    no game of theirs in play (a wave to create, or the season's end), or a member dropped
    from one of their games and not yet forfeited. A division with a game in play and no drop
    waits for that game's end."""
    in_play = LeagueFixture.objects.filter(division=OuterRef("pk"), game__status=Game.Status.ACTIVE)
    dropped = Seat.objects.filter(
        game__league_fixture__division=OuterRef("pk"),
        dropped=True,
        user__league_entries__division=OuterRef("pk"),
        user__league_entries__status=LeagueEntry.Status.PLAYING,
    )
    return list(
        Division.objects.filter(season__status=LeagueSeason.Status.PLAYING)
        .filter(~Exists(in_play) | Exists(dropped))
        .values_list("pk", flat=True)
    )
