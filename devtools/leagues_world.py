"""Leagues at scale, for measuring (the leagues benchmark, the query-count tests): `players`
people shared out among `leagues` leagues, each league's first season started, so that it is
playing with its divisions, its plan of tables and its first wave of games.

The people, leagues, seasons and entries go in with bulk_create; the start is the site's own
(games.leagues.season_start: divisions by rating, bulk-created fixtures, and the first wave's
games made by services.game_create_seated, one by one, as the site makes them)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.hashers import make_password
from django.utils import timezone

from accounts.models import User
from games.competitions import leagues
from games.models import League, LeagueEntry, LeagueSeason


def seed_leagues(
    *,
    players: int,
    leagues_count: int,
    division_size: int = 6,
    seats_per_table: int = 2,
    prefix: str = "league",
) -> list[League]:
    """Make `leagues_count` leagues of about players / leagues_count members each, playing."""
    now = timezone.now()
    password = make_password(None)
    people = User.objects.bulk_create(
        User(
            username=f"{prefix}-p{i}",
            display_name=f"{prefix.title()} Player {i}",
            email=f"{prefix}-p{i}@example.com",
            password=password,
        )
        for i in range(players)
    )
    made = League.objects.bulk_create(
        League(
            name=f"{prefix.title()} {n + 1}",
            created_by=people[n % len(people)],
            preset="classic",
            seats_per_table=seats_per_table,
            division_size=division_size,
            bots_fill=False,
        )
        for n in range(leagues_count)
    )
    seasons = LeagueSeason.objects.bulk_create(
        LeagueSeason(league=league, number=1, starts_at=now - timedelta(minutes=1))
        for league in made
    )
    LeagueEntry.objects.bulk_create(
        LeagueEntry(season=seasons[i % leagues_count], user=user) for i, user in enumerate(people)
    )
    for season in seasons:
        leagues.season_start(season_id=season.pk, now=now)
    return made
