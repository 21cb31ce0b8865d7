"""A league season through a real Celery worker on Redis, against PostgreSQL: twelve members,
people and bots, in two divisions of six. Beat's sweep (sent here as beat would) starts the
season, each game's end makes the worker create the next wave, the bots' turns are the worker's,
the people's are played by the test through the services; at the end the top of division 2 and
the bottom of division 1 swap, the next season opens and each person's result mail carries the
one-click opt-in."""

import random
import re
import time

import pytest
from django.core import mail
from django.utils import timezone

from games import services, tasks
from games.competitions import leagues
from games.engine import GameState, get_bot
from games.errors import GameError
from games.models import Game, LeagueEntry, LeagueSeason
from tests.factories import UserFactory, play_one
from tests.workers import wait_for, worker_has_drained

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def play_people_turns(season) -> int:
    """One move for each person to move at a game of the season (the easy bot's choice)."""
    bot, moved = get_bot("easy"), 0
    games = Game.objects.filter(league_fixture__division__season=season, status=Game.Status.ACTIVE)
    for game in games:
        seats = {s.index: s for s in game.seats.select_related("user")}
        seat = seats.get(game.to_move_seat)
        if seat is None or seat.played_by_bot:
            continue
        view = GameState.from_dict(game.state).view(seat.index)
        rng = random.Random(f"{game.seed}:{game.version}")
        users = {i: s.user for i, s in seats.items()}
        try:
            play_one(game, users, choose=lambda _legal, view=view, rng=rng: bot.choose(view, rng))
        except GameError:  # the worker moved first (a stale version): next time
            continue
        moved += 1
    return moved


def test_a_league_season_plays_to_its_end_through_the_worker_and_moves_players(
    worker, client, settings, short_games
):
    settings.BOT_MOVE_DELAY_SECONDS = 0  # many games: the bots move as soon as they may
    people = [UserFactory() for _ in range(4)]
    league = leagues.league_create(
        user=people[0],
        name="Worker league",
        preset="classic",
        seats_per_table=3,
        division_size=6,
        movers=2,
        bots_fill=False,
    )
    for user in people[1:]:
        leagues.league_join(league_id=league.pk, user=user)
    for bot in services.bot_accounts(bot_kind="easy", count=8):
        leagues.league_join(league_id=league.pk, user=bot)
    LeagueSeason.objects.filter(league=league).update(starts_at=timezone.now())
    season = LeagueSeason.objects.get(league=league, number=1)
    mail.outbox.clear()

    tasks.leagues_sweep.delay()  # as beat would
    assert wait_for(lambda: Game.objects.filter(league_fixture__isnull=False).exists())
    season.refresh_from_db()
    assert season.status == LeagueSeason.Status.PLAYING
    assert season.divisions.count() == 2
    assert all(d.entries.count() == 6 for d in season.divisions.all())

    deadline = time.monotonic() + 900
    while season.status != LeagueSeason.Status.FINISHED:
        assert time.monotonic() < deadline, "the season did not finish"
        if not play_people_turns(season):
            time.sleep(0.05)
        season.refresh_from_db()
    assert worker_has_drained()

    entries = {e.user_id: e for e in season.entries.select_related("division")}
    for entry in entries.values():
        level, place = entry.division.level, entry.place
        expected = (
            "up" if level == 2 and place <= 2 else "down" if level == 1 and place >= 5 else "stay"
        )
        assert entry.movement == expected, (level, place, entry.movement)
    following = LeagueSeason.objects.get(league=league, number=2)
    assert following.status == LeagueSeason.Status.REGISTRATION
    bots_in = following.entries.filter(user__is_bot=True).count()
    assert bots_in == 8  # the season's bots are entered at once

    assert wait_for(lambda: len([m for m in mail.outbox if "season 1" in m.subject]) == 4)
    for user in people:
        [message] = [m for m in mail.outbox if m.to == [user.email] and "season 1" in m.subject]
        link = re.search(r"https?://[^/\s]+(/leagues/next/[^\s]+/)", message.body).group(1)
        assert client.get(link).status_code == 200
        assert not following.entries.filter(user=user).exists()  # a GET enters nobody
        assert client.post(link).status_code == 302
        assert following.entries.filter(user=user).exists()

    # The next season starts with the movers swapped.
    LeagueSeason.objects.filter(pk=following.pk).update(starts_at=timezone.now())
    tasks.leagues_sweep.delay()
    assert wait_for(lambda: LeagueSeason.objects.get(pk=following.pk).status == "playing")
    top = set(
        LeagueEntry.objects.filter(season=following, division__level=1).values_list(
            "user_id", flat=True
        )
    )
    expected_top = {
        u
        for u, e in entries.items()
        if (e.division.level == 1 and e.movement == "stay")
        or (e.division.level == 2 and e.movement == "up")
    }
    assert top == expected_top
    assert worker_has_drained()
