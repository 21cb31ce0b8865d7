"""Leagues (games/competitions/leagues.py, games/selectors/leagues.py): the plan of a division,
seasons starting in divisions by rating, waves of games, standings and their tie-breaks,
forfeits, a season's end with its movement, the next season and its opt-in mail."""

import itertools
from collections import Counter
from datetime import timedelta

import pytest
from django.core import mail
from django.db import IntegrityError
from django.utils import timezone

from games import pairing, services
from games.competitions import leagues
from games.errors import GameError
from games.models import (
    DIVISION_SIZE_MIN,
    Game,
    LeagueEntry,
    LeagueFixture,
    LeagueSeason,
    Notification,
    Rating,
    Seat,
)
from games.notifications.optin import optin_token
from games.notifications.outbox import notification_send
from games.selectors.leagues import division_standings
from tests.competitions.helpers import finish_league_game, make_league, play_season, season_of
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def rate(user, shown: int):
    ordinal = (shown - 1000) / 40
    Rating.objects.create(user=user, mu=ordinal + 3, sigma=1, ordinal=ordinal, games=10)


# -- the plan ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(4, 9))
def test_pairs_meet_once_each_wave_a_round_nobody_twice(n):
    waves = pairing.fixture_plan(list(range(n)), 2)
    tables = [t for wave in waves for t in wave]
    assert sorted(tuple(sorted(t)) for t in tables) == list(itertools.combinations(range(n), 2))
    for wave in waves:
        seated = [p for t in wave for p in t]
        assert len(seated) == len(set(seated))
    assert len(waves) == (n - 1 if n % 2 == 0 else n)


@pytest.mark.parametrize("n", range(4, 9))
def test_threes_cover_every_pair_balanced_nobody_twice_in_a_wave(n):
    waves = pairing.fixture_plan(list(range(n)), 3)
    tables = [t for wave in waves for t in wave]
    met = {pair for t in tables for pair in itertools.combinations(sorted(t), 2)}
    assert met == set(itertools.combinations(range(n), 2))
    games = Counter(p for t in tables for p in t)
    assert max(games.values()) - min(games.values()) <= 2
    for wave in waves:
        seated = [p for t in wave for p in t]
        assert len(seated) == len(set(seated))


@pytest.mark.parametrize(
    "count, size, sizes",
    [(6, 6, [6]), (12, 6, [6, 6]), (13, 6, [5, 4, 4]), (7, 6, [7]), (9, 4, [5, 4]), (2, 6, [2])],
)
def test_division_sizes_are_even(count, size, sizes):
    assert pairing.division_sizes(count, size, smallest=DIVISION_SIZE_MIN) == sizes


# -- creating, joining, leaving ------------------------------------------------------------------


def test_a_new_league_opens_its_first_season_with_its_creator_in_it():
    alice = UserFactory()
    league = leagues.league_create(user=alice, name="  Friday   club ", preset="extended")
    assert league.name == "Friday club"
    season = season_of(league)
    assert season.status == LeagueSeason.Status.REGISTRATION
    assert season.starts_at > timezone.now() + timedelta(days=6)
    assert list(season.entries.values_list("user", flat=True)) == [alice.pk]


@pytest.mark.parametrize(
    "options",
    [
        {"name": ""},
        {"name": "x" * 61},
        {"preset": "nope"},
        {"seats_per_table": 4},
        {"time_per_move_days": 4},
        {"division_size": 9},
        {"movers": 3},
        {"registration_days": 0},
    ],
)
def test_a_league_with_bad_settings_is_refused(options):
    arguments = {"name": "Good", "preset": "classic", **options}
    with pytest.raises(GameError):
        leagues.league_create(user=UserFactory(), **arguments)


def test_names_are_unique_whatever_the_case():
    leagues.league_create(user=UserFactory(), name="Aces", preset="classic")
    with pytest.raises(GameError) as error:
        leagues.league_create(user=UserFactory(), name="ACES", preset="classic")
    assert error.value.status == 409


def test_joining_twice_or_after_the_start_is_refused_and_leaving_before_it_removes_the_entry():
    alice, bob = UserFactory(), UserFactory()
    league = leagues.league_create(user=alice, name="L", preset="classic")
    leagues.league_join(league_id=league.pk, user=bob)
    with pytest.raises(GameError):
        leagues.league_join(league_id=league.pk, user=bob)
    leagues.league_leave(league_id=league.pk, user=bob)
    assert not LeagueEntry.objects.filter(user=bob).exists()
    for no_league in (10**6, 2**63):  # past a 64-bit integer too: SQLite cannot hold it
        with pytest.raises(GameError) as error:
            leagues.league_join(league_id=no_league, user=bob)
        assert error.value.status == 404
        with pytest.raises(GameError) as error:
            leagues.league_leave(league_id=no_league, user=bob)
        assert error.value.status == 404


def test_one_unfinished_season_per_league_is_a_constraint():
    league = leagues.league_create(user=UserFactory(), name="L", preset="classic")
    with pytest.raises(IntegrityError):
        LeagueSeason.objects.create(league=league, number=2, starts_at=timezone.now())


# -- the start -----------------------------------------------------------------------------------


def test_a_season_starts_in_divisions_by_rating_with_its_first_wave():
    people = [UserFactory() for _ in range(12)]
    rate(people[0], 900)  # the creator is the weakest; a newcomer would count as 1000
    for i, user in enumerate(people[1:], 1):
        rate(user, 1500 - 10 * i)
    league = make_league(people)
    assert leagues.season_start(season_id=season_of(league).pk)
    season = season_of(league)
    assert season.status == LeagueSeason.Status.PLAYING
    top, second = season.divisions.order_by("level")
    assert set(top.entries.values_list("user", flat=True)) == {u.pk for u in people[1:7]}
    assert people[0].pk in set(second.entries.values_list("user", flat=True))
    for division in (top, second):
        assert division.fixtures.count() == 15
        wave_one = division.fixtures.filter(wave=1)
        assert wave_one.count() == 3 and all(f.game_id for f in wave_one)
        assert not division.fixtures.filter(wave__gt=1, game__isnull=False).exists()
    game = top.fixtures.filter(wave=1).first().game
    assert (
        game.status == Game.Status.ACTIVE and game.rated and game.is_public
    )  # anyone may watch it
    assert game.time_per_move_days == 3


def test_a_season_not_due_or_too_small_waits():
    league = make_league([UserFactory() for _ in range(3)])
    season = season_of(league)
    assert not leagues.season_start(season_id=season.pk, now=season.starts_at - timedelta(1))
    assert not leagues.season_start(season_id=season.pk)  # 3 < 4 without bots
    season.refresh_from_db()
    assert season.status == LeagueSeason.Status.REGISTRATION
    assert season.starts_at > timezone.now() + timedelta(days=6)


def test_bots_fill_a_short_division():
    people = [UserFactory() for _ in range(3)]
    league = make_league(people, bots_fill=True, division_size=5)
    leagues.season_start(season_id=season_of(league).pk)
    [division] = season_of(league).divisions.all()
    users = [e.user for e in division.entries.select_related("user")]
    assert len(users) == 5 and sum(u.is_bot for u in users) == 2


# -- waves, standings, the end ---------------------------------------------------------------------


def test_the_next_wave_waits_for_every_game_of_the_wave_before():
    league = make_league([UserFactory() for _ in range(4)])
    leagues.season_start(season_id=season_of(league).pk)
    division = season_of(league).divisions.get()
    first, second = division.fixtures.filter(wave=1)
    finish_league_game(first.game)
    assert not division.fixtures.filter(wave=2, game__isnull=False).exists()
    finish_league_game(second.game)
    assert division.fixtures.filter(wave=2, game__isnull=False).count() == 2
    assert leagues.division_advance(division_id=division.pk) == 0  # nothing twice


def test_a_season_plays_to_its_end_moves_players_and_mails_the_next_season():
    people = [UserFactory() for _ in range(8)]
    for i, user in enumerate(people):
        rate(user, 1500 - 10 * i)
    league = make_league(people, division_size=4, movers=1)
    leagues.season_start(season_id=season_of(league).pk)
    mail.outbox.clear()
    # The weaker always loses (the later in `people` resigns): the seeds finish in order.
    season = play_season(league, loser_order=people)
    assert season.status == LeagueSeason.Status.FINISHED and season.finished_at
    entries = {e.user_id: e for e in season.entries.all()}
    assert [entries[u.pk].place for u in people] == [1, 2, 3, 4, 1, 2, 3, 4]
    movement = [entries[u.pk].movement for u in people]
    assert movement == ["stay", "stay", "stay", "down", "up", "stay", "stay", "stay"]
    top = season.divisions.get(level=1)
    rows = division_standings(top)
    assert [r.half_points for r in rows] == [6, 4, 2, 0]  # 3, 2, 1, 0 wins of 3
    following = season_of(league, 2)
    assert following.status == LeagueSeason.Status.REGISTRATION
    rows = Notification.objects.filter(kind=Notification.Kind.LEAGUE_SEASON)
    assert rows.count() == 8 and {r.status for r in rows} == {"pending"}
    # Next season: people opt in by the link; the one who went down starts in division 2.
    for user in people:
        leagues.league_optin(token=optin_token(user_id=user.pk, entry_id=entries[user.pk].pk))
    following.starts_at = timezone.now()
    following.save()
    leagues.season_start(season_id=following.pk)
    top = following.divisions.get(level=1)
    assert set(top.entries.values_list("user", flat=True)) == {people[i].pk for i in (0, 1, 2, 4)}


def test_standings_break_ties_by_wins_then_totals_then_seed():
    people = [UserFactory() for _ in range(4)]
    league = make_league(people)
    leagues.season_start(season_id=season_of(league).pk)
    division = season_of(league).divisions.get()
    rows = division_standings(division)
    assert all(r.half_points == 0 and r.played == 0 for r in rows)
    by_seed = sorted(rows, key=lambda r: (-(r.entry.seed_rating or 0), r.entry.user_id))
    assert [r.entry.pk for r in rows] == [r.entry.pk for r in by_seed]


def test_a_player_who_leaves_mid_season_forfeits_the_rest_and_ranks_last():
    people = [UserFactory() for _ in range(4)]
    league = make_league(people)
    leagues.season_start(season_id=season_of(league).pk)
    division = season_of(league).divisions.get()
    leaver = people[3]
    leagues.league_leave(league_id=league.pk, user=leaver)
    entry = LeagueEntry.objects.get(user=leaver)
    assert entry.status == "forfeited" and entry.forfeit_reason == "left" and entry.forfeited_at
    assert not Seat.objects.filter(
        user=leaver, game__status="active", resigned=False
    ).exists()  # the game in play resigned
    unplayed = division.fixtures.filter(game__isnull=True)
    assert all(leaver.pk not in f.players for f in unplayed)
    assert sum(leaver.pk in f.absent for f in unplayed) == 2
    season = play_season(league)
    assert season.status == "finished"
    rows = division_standings(division)
    assert rows[-1].entry.user_id == leaver.pk
    walkovers = [f for f in division.fixtures.all() if f.game_id is None]
    assert len(walkovers) == 2 and all(len(f.players) == 1 for f in walkovers)
    with pytest.raises(GameError):
        leagues.league_leave(league_id=league.pk, user=leaver)


def test_a_player_dropped_for_timeouts_forfeits_the_rest():
    people = [UserFactory() for _ in range(4)]
    league = make_league(people)
    leagues.season_start(season_id=season_of(league).pk)
    division = season_of(league).divisions.get()
    fixture = division.fixtures.filter(wave=1).first()
    seat = fixture.game.seats.get(index=0)
    Seat.objects.filter(pk=seat.pk).update(dropped=True, resigned=True)
    leagues.league_game_finished(game_id=fixture.game_id)
    entry = LeagueEntry.objects.get(user=seat.user)
    assert entry.status == "forfeited" and entry.forfeit_reason == "dropped"


def test_optin_links_that_are_not_ours_are_refused():
    with pytest.raises(GameError) as error:
        leagues.league_optin(token="1.2.deadbeef")
    assert error.value.status == 404


def test_a_league_game_ending_queues_the_league_task(monkeypatch):
    queued = []
    monkeypatch.setattr(services, "enqueue_on_commit", lambda name, args, **kw: queued.append(name))
    league = make_league([UserFactory() for _ in range(4)])
    leagues.season_start(season_id=season_of(league).pk)
    fixture = LeagueFixture.objects.filter(game__isnull=False).first()
    person = fixture.game.seats.first().user
    services.game_resign(game_id=fixture.game_id, user=person)
    assert "games.tasks.game_finished" in queued


def test_the_sweep_starts_seasons_and_creates_waves_once():
    league = make_league([UserFactory() for _ in range(4)])
    assert leagues.leagues_sweep() == {"started": 1, "games": 0}
    assert Game.objects.count() == 2
    assert leagues.leagues_sweep() == {"started": 0, "games": 0}
    assert Game.objects.count() == 2
    assert season_of(league).status == "playing"


def test_the_started_mail_of_a_league_game_names_the_league(mailoutbox):
    league = make_league([UserFactory() for _ in range(4)])
    leagues.season_start(season_id=season_of(league).pk)
    row = Notification.objects.filter(kind=Notification.Kind.STARTED).first()
    assert notification_send(notification_id=row.pk) == "sent"
    [message] = mailoutbox
    assert "Tuesday · Season 1 · Division 1" in message.body


def test_a_member_whose_account_is_gone_is_seated_at_no_new_table():
    people = [UserFactory() for _ in range(4)]
    league = make_league(people)
    leagues.season_start(season_id=season_of(league).pk)
    gone = people[2]
    type(gone).objects.filter(pk=gone.pk).update(is_active=False)
    play_season(league)
    entry = LeagueEntry.objects.get(user=gone)
    assert entry.status == "forfeited" and entry.forfeit_reason == "left"
    later = LeagueFixture.objects.filter(game__seats__user=gone, wave__gt=1)
    assert not later.exists()
