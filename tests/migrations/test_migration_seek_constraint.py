"""games 0020: one open seek per player and combination, held by SQLite too. Where the old
constraint was not enforced (SQLite has no NULLS NOT DISTINCT), racing clicks may have left two
open seeks of one combination: the migration cancels the later ones, then the index holds."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from tests.factories import UserFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "sqlite",
        reason="the duplicates arise only where the old constraint was not enforced (SQLite)",
    ),
]

BEFORE = [("games", "0019_mail_play")]
AFTER = [("games", "0020_seek_constraint_both_databases")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_later_duplicate_open_seeks_are_cancelled_then_the_database_refuses_them():
    apps = migrate(BEFORE)
    Seek = apps.get_model("games", "Seek")
    try:
        alice = UserFactory()  # the accounts' tables are as today's models make them
        rows = [
            (None, "classic", None, "open"),
            (None, "classic", None, "open"),  # the same, later: cancelled
            (3, "classic", None, "open"),  # another combination: stays open
            (None, "classic", 3, "open"),
            (None, "classic", 3, "open"),  # cancelled
            (None, "classic", None, "matched"),  # not open: untouched
        ]
        made = [
            Seek.objects.create(
                player_id=alice.pk, seats=s, preset=p, time_per_move_days=t, status=st
            ).pk
            for s, p, t, st in rows
        ]
        Seek = migrate(AFTER).get_model("games", "Seek")
        statuses = [Seek.objects.get(pk=pk).status for pk in made]
        assert statuses == ["open", "cancelled", "open", "open", "cancelled", "matched"]
        with pytest.raises(IntegrityError), transaction.atomic():
            Seek.objects.create(player_id=alice.pk, preset="classic", status="open")
    finally:  # the latest schema again, for the tests after this one
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
