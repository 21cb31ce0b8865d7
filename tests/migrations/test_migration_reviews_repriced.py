"""games 0026: the reviews priced before the player's own points are removed (a game's figures
are a sum over its rounds, which means nothing over two scales); the review page and
`manage.py review_games` have them made again from the moves."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import RoundReview
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0025_seat_hand_order_round")]
AFTER = [("games", "0026_reviews_repriced")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_the_reviews_priced_the_old_way_are_removed():
    game = started_game([UserFactory()], bots="easy", seat_count=2)  # today's schema
    seat = game.seats.get(index=0)
    try:
        Old = migrate(BEFORE).get_model("games", "RoundReview")
        Old.objects.create(seat_id=seat.pk, round_index=0, decisions=[], judged=3, accurate=2,
                           lost=47.0)  # fmt: skip
        assert Old.objects.count() == 1
        assert migrate(AFTER).get_model("games", "RoundReview").objects.count() == 0
    finally:  # the latest schema again, for the tests after this one
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert not RoundReview.objects.exists()
