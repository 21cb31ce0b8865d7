"""Racing moves on one game, with real threads on PostgreSQL: exactly one applies."""

import pytest

from games import services
from games.engine import GameState, Rules
from games.errors import GameError, StaleVersion
from games.models import Move, Rating, RatingChange
from games.selectors.history import replayed_state
from tests.factories import UserFactory, started_game
from tests.racing import race

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]


def test_a_double_submitted_move_applies_once():
    game = started_game([UserFactory(), UserFactory()])
    mover = game.seats.get(index=game.to_move_seat).user
    results = race(
        6,
        lambda i: services.move_draw(
            game_id=game.pk, user=mover, version=0, source=("stock", "discard")[i % 2]
        ),
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, StaleVersion)]
    assert len(applied) == 1 and len(refused) == 5
    assert "moved on" in refused[0].message
    game.refresh_from_db()
    assert game.version == 1 and Move.objects.filter(game=game).count() == 1


def test_a_whole_game_of_racing_submissions_loses_and_doubles_nothing():
    users = [UserFactory(), UserFactory(), UserFactory()]
    game = started_game(users)
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    outcomes = {"applied": 0, "stale": 0, "other": 0}
    for _ in range(60):
        game.refresh_from_db()
        legal = GameState.from_dict(game.state).legal_actions()
        version = game.version

        def attempt(i, legal=legal, version=version):
            # Each thread plays a different legal action for the seat to move, or the wrong seat.
            action = legal[i % len(legal)].to_dict()
            user = by_seat[action["seat"]] if i < 3 else by_seat[(action["seat"] + 1) % 3]
            if action["type"] == "draw":
                return services.move_draw(
                    game_id=game.pk, user=user, version=version, source=action["source"]
                )
            return services.move_discard(
                game_id=game.pk, user=user, version=version, card=action["card"]
            )

        for result in race(4, attempt):
            if isinstance(result, StaleVersion):
                outcomes["stale"] += 1
            elif isinstance(result, GameError):
                outcomes["other"] += 1
            elif isinstance(result, Exception):
                raise result
            else:
                outcomes["applied"] += 1
    game.refresh_from_db()
    assert outcomes["applied"] == 60 == game.version
    assert outcomes["stale"] > 0
    seqs = list(Move.objects.filter(game=game).values_list("seq", flat=True).order_by("seq"))
    assert seqs == list(range(60))
    assert replayed_state(game) == GameState.from_dict(game.state)


def test_joins_racing_for_the_last_seat_seat_exactly_one():
    host = UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=2)
    guests = [UserFactory() for _ in range(5)]
    results = race(5, lambda i: services.game_join(game_id=game.pk, user=guests[i]))
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, GameError) for r in results if isinstance(r, Exception))
    assert game.seats.count() == 2


def test_games_ending_at_once_with_a_newcomer_in_common_both_rate_them(settings):
    """Two games end at the same moment, both with a player who has no rating yet: one game
    creates the row, the other waits for it, and both count (games/ratings.py)."""
    settings.RATING_MIN_ROUNDS = 0
    newcomer = UserFactory()
    games = [started_game([newcomer, UserFactory()]) for _ in range(4)]
    losers = [game.seats.exclude(user=newcomer).get().user for game in games]
    results = race(4, lambda i: services.game_resign(game_id=games[i].pk, user=losers[i]))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert RatingChange.objects.filter(user=newcomer).count() == 4
    assert Rating.objects.get(user=newcomer).games == 4


def test_a_double_clicked_invitation_to_a_friend_makes_one_game():
    from games import invitations
    from games.models import Follow, Game

    me, friend = UserFactory(), UserFactory()
    Follow.objects.create(follower=me, followee=friend)
    results = race(4, lambda i: invitations.friend_invite(user=me, friend=friend).pk)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert len(set(results)) == 1
    assert Game.objects.filter(created_by=me).count() == 1


def test_the_join_that_takes_the_last_seat_starts_the_game_once():
    host = UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=3)
    guests = [UserFactory() for _ in range(6)]
    results = race(6, lambda i: services.game_join(game_id=game.pk, user=guests[i]))
    assert sum(not isinstance(r, Exception) for r in results) == 2
    game.refresh_from_db()
    assert game.status == "active" and game.seats.count() == 3
    assert GameState.from_dict(game.state).to_move == game.to_move_seat
