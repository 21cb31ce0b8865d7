"""Writes that need not wait for the disk (PostgreSQL's "asynchronous commit"): what a player has
seen and when they were last at the table. On PostgreSQL each commit waits for its WAL to reach
the disk (an fdatasync, which can cost more than the rest of an unchanged poll); these writes
commit without waiting (synchronous_commit off for their own transaction alone). A crash can
forget the last fraction of a second of them (a few moves shown again as news, a 'your turn'
mail that does not wait for a player who was looking), never corrupts anything, and never
touches a move: inside a transaction already open (a move's) the write simply joins it, as
durable as the rest."""

from __future__ import annotations

from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def asynchronous_commit():
    if connection.in_atomic_block or connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield
