"""Shared by the competition tests: a tournament opened and filled, its rounds finished and
read; a league made, its seasons played to their end (each league game ended by a resignation,
`finish_league_game`, or played out by its bots)."""

from games import services
from games.competitions import leagues, tournaments
from games.models import Division, Game, League, LeagueSeason, Tournament, TournamentTable
from tests.factories import LeagueFactory, TournamentFactory, finish_game, play_on


def open_tournament(host=None, **options) -> Tournament:
    return TournamentFactory(**({"host": host} if host else {}), **options)


def with_players(count, **options) -> Tournament:
    """A tournament of `count` players (its host the first)."""
    return TournamentFactory(players=count - 1, **options)


def finish_round(tournament) -> None:
    """End every game of the current round where it stands, then look (as the task does)."""
    tournament.refresh_from_db()
    games = Game.objects.filter(
        tournament_table__round__tournament=tournament,
        tournament_table__round__number=tournament.current_round,
        status=Game.Status.ACTIVE,
    )
    for game in games:
        finish_game(game)
    for game in games.model.objects.filter(pk__in=[g.pk for g in games]):
        tournaments.tournament_game_finished(game_id=game.pk)
    tournament.refresh_from_db()


def round_tables(tournament, number) -> list[list[int]]:
    tables = TournamentTable.objects.filter(round__tournament=tournament, round__number=number)
    return [
        sorted(t.game.seats.values_list("user_id", flat=True)) if t.game else [t.bye_id]
        for t in tables.select_related("game").order_by("number")
    ]


def make_league(members, **options) -> League:
    """A league created by members[0], joined by the rest, its first season due now."""
    return LeagueFactory(members=members, name="Tuesday", **options)


def season_of(league, number=1) -> LeagueSeason:
    return LeagueSeason.objects.get(league=league, number=number)


def finish_league_game(game: Game, loser=None):
    """End a league game: a person resigns (the first seated, or `loser`) where one plays,
    which ends a table with one person left at once; else the bots play it out."""
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        people = list(game.seats.filter(user__is_bot=False, resigned=False).select_related("user"))
        if not people:
            play_on(game)
            break
        chosen = next((s for s in people if s.user == loser), people[0])
        services.game_resign(game_id=game.pk, user=chosen.user)
        game.refresh_from_db()
    run_queued()


def run_queued():
    """What the worker does after a game's end: advance every playing division."""
    for division in Division.objects.filter(season__status="playing"):
        leagues.division_advance(division_id=division.pk)


def play_season(league, number=1, loser_order=None):
    """Every wave's games to their end."""
    season = season_of(league, number)
    while season.status == LeagueSeason.Status.PLAYING:
        active = Game.objects.filter(
            league_fixture__division__season=season, status=Game.Status.ACTIVE
        )
        if not active.exists():
            run_queued()
            season.refresh_from_db()
            if not active.exists():
                break
        for game in active:
            loser = None
            if loser_order:
                seated = [s.user for s in game.seats.select_related("user")]
                loser = max(seated, key=loser_order.index)
            finish_league_game(game, loser=loser)
        season.refresh_from_db()
    return season
