"""`manage.py seed_history` at a tiny size (devtools/seeding.py): the rows it writes hang together
as the site's own would, and the pages read them."""

import itertools
from collections import Counter, defaultdict
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.urls import reverse

from accounts.models import User
from games.models import Game, Rating, RatingChange, RoundScore, Seat

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def seed():
    call_command(
        "seed_history", games=20, users=10, in_play=2, open=2, seed="tiny", stdout=StringIO()
    )


def game_shapes(games):
    """What a seed decides, without ids or times."""
    return [
        (
            game.status, game.seat_count, game.seed, game.end_reason, game.version,
            tuple((s.final_total, s.final_rank, s.resigned) for s in game.seats.all()),
        )
        for game in games.order_by("pk").prefetch_related("seats")
    ]  # fmt: skip


def test_seeded_games_are_coherent_and_the_pages_read_them(client):
    seed()
    games = Game.objects.all()
    assert Counter(games.values_list("status", flat=True)) == {
        "finished": 20,
        "active": 2,
        "open": 2,
    }
    people = User.objects.filter(username__startswith="seeded-")
    assert people.count() == 10
    assert not any(person.has_usable_password() for person in people)  # nobody logs in as one
    penalties = defaultdict(int)
    for row in RoundScore.objects.values("game_id", "seat").annotate(total=Sum("penalty")):
        penalties[row["game_id"], row["seat"]] = row["total"]
    for game in games.filter(status="finished").prefetch_related("seats__user"):
        seats = list(game.seats.all())
        assert len(seats) == game.seat_count
        assert game.state is not None and game.finished_at is not None
        assert not any(seat.resigned and seat.user.is_bot for seat in seats)
        for seat in seats:
            assert seat.final_total == penalties[game.pk, seat.index]  # the rounds add up
            assert seat.finished_at == game.finished_at
            assert seat.players == game.seat_count
        # Ranks: 1 first, lower totals never below higher ones, a resigned seat after the others.
        standing = sorted(seats, key=lambda s: (s.resigned, s.final_total))
        assert standing[0].final_rank == 1
        for better, worse in itertools.pairwise(standing):
            tied = (better.resigned, better.final_total) == (worse.resigned, worse.final_total)
            assert (
                better.final_rank == worse.final_rank
                if tied
                else better.final_rank < worse.final_rank
            )
        changes = RatingChange.objects.filter(game=game)
        assert sorted(c.user_id for c in changes) == sorted(s.user_id for s in seats)
    # Every rated player has a rating, counting their rated games.
    rated = Counter(RatingChange.objects.values_list("user_id", flat=True))
    assert dict(Rating.objects.values_list("user_id", "games")) == rated
    for active in games.filter(status="active"):
        assert active.seats.filter(final_rank__isnull=True).count() == active.seat_count
        assert active.moves.count() == active.version

    busiest = (
        Seat.objects.filter(user__is_bot=False, finished_at__isnull=False)
        .values("user")
        .annotate(n=Sum(1))
        .order_by("-n")[0]["user"]
    )
    player = User.objects.get(pk=busiest)
    client.force_login(player)
    for url in (
        reverse("home"),
        reverse("player", args=[player.username]),
        reverse("leaderboard"),
        reverse("lobby"),
    ):
        assert client.get(url).status_code == 200, url
    # The table of the game in play reads its snapshot and move log, as one of its players.
    client.force_login(active.seats.filter(user__is_bot=False).first().user)
    assert client.get(reverse("game", args=[active.pk])).status_code == 200


def test_one_seed_gives_the_same_games():
    seed()
    first = game_shapes(Game.objects.all())
    seed()
    both = game_shapes(Game.objects.all())
    assert both[len(first) :] == first
