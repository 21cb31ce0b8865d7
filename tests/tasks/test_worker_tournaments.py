"""Tournaments through a real Celery worker on Redis, against PostgreSQL: bots play every table,
each game's end queues the task that looks at its round, and the last table of a round begins
the next; after the last round the standing is final and the winner named. People's places go
out by mail through the same worker."""

from itertools import pairwise

import pytest
from django.core import mail
from django.db import connection

from config.celery import app as celery_app
from games import services
from games.competitions import tournaments
from games.models import Game, Seat, Tournament, TournamentEntry, TournamentRound, TournamentTable
from games.selectors.tournaments import standings
from tests.competitions.helpers import open_tournament, round_tables
from tests.factories import UserFactory
from tests.workers import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def bot_tournament(bots: int, **options) -> Tournament:
    """A tournament of `bots` bot accounts (its host, a person, left it before the start)."""
    tournament = open_tournament(**options)
    tournaments.tournament_leave(tournament_id=tournament.pk, user=tournament.created_by)
    TournamentEntry.objects.bulk_create(
        TournamentEntry(tournament=tournament, user=bot)
        for bot in services.bot_accounts(bot_kind="easy", count=bots)
    )
    return tournament


def finished(tournament) -> bool:
    tournament.refresh_from_db()
    return tournament.status == Tournament.Status.FINISHED


def test_a_12_player_tournament_pairs_three_rounds_and_ends_through_the_worker(
    worker, settings, short_games
):
    assert connection.vendor == "postgresql" and celery_app.conf.broker_url.startswith("redis")
    settings.BOT_MOVE_DELAY_SECONDS = 0
    tournament = bot_tournament(12, seats_per_table=3, rounds=3)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    assert wait_for(lambda: finished(tournament), timeout=540, interval=0.5)
    rounds = TournamentRound.objects.filter(tournament=tournament).order_by("number")
    assert [r.number for r in rounds] == [1, 2, 3] and all(r.finished_at for r in rounds)
    for number in (1, 2, 3):
        assert [len(t) for t in round_tables(tournament, number)] == [3, 3, 3, 3]
    games = Game.objects.filter(tournament_table__round__tournament=tournament)
    assert games.count() == 12 and set(games.values_list("status", flat=True)) == {"finished"}
    # Each round began once its last table ended, not before.
    for earlier, later in pairwise(rounds):
        last_end = max(g.finished_at for g in games.filter(tournament_table__round=earlier))
        assert earlier.finished_at >= last_end and later.started_at >= last_end
    lines = standings(tournament)
    assert tournament.winner == lines[0].user and lines[0].place == 1
    assert sorted(
        TournamentEntry.objects.filter(tournament=tournament).values_list("place", flat=True)
    ) == sorted(line.place for line in lines)


def test_tables_of_two_with_an_odd_count_give_byes_and_a_person_hears_their_place(
    worker, settings, short_games
):
    settings.BOT_MOVE_DELAY_SECONDS = 0
    tournament = bot_tournament(4, seats_per_table=2, rounds=2)
    person = UserFactory()
    TournamentEntry.objects.create(tournament=tournament, user=person)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)

    def resign_and_look() -> bool:
        """The person resigns each table they are given (a bot finishes it for them)."""
        for seat in Seat.objects.filter(
            user=person, resigned=False, game__status=Game.Status.ACTIVE
        ):
            services.game_resign(game_id=seat.game_id, user=person)
        return finished(tournament)

    assert wait_for(resign_and_look, timeout=540, interval=0.5)
    for number in (1, 2):
        assert sorted(len(t) for t in round_tables(tournament, number)) == [1, 2, 2]
    byes = TournamentTable.objects.filter(round__tournament=tournament, bye__isnull=False)
    assert len(set(byes.values_list("bye_id", flat=True))) == 2
    assert wait_for(
        lambda: any(
            m.to == [person.email] and m.subject.startswith(f"{tournament.name} is over")
            for m in mail.outbox
        )
    )
