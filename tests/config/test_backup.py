"""The restore drill of docs/operations.md ("Backup and restore"): a dump taken with pg_dump while
games are being played restores into a fresh database on which the site starts at the newest
migration, every game's state is its move log replayed, and no mail already sent goes out again
(the outbox says what was sent)."""

import json
import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from django.db import connection

from tests.factories import UserFactory, play_on, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parent.parent.parent

# Run by the site on the restored database: that it is at the newest migration, then every
# notification handed to the outbox as the worker would, and every game rebuilt from its moves.
ON_THE_RESTORED_SITE = """
import json, django
django.setup()
from django.core import mail
from django.core.management import call_command
call_command("migrate", "--check", verbosity=0)  # exits 1 unless at the newest migration
from games.models import Game, Notification
from games.notifications import outbox
from games.selectors.history import replayed_state
sent_before = set(Notification.objects.filter(status="sent").values_list("pk", flat=True))
answers = {n: outbox.notification_send(notification_id=n)
           for n in Notification.objects.values_list("pk", flat=True)}
games = Game.objects.exclude(state=None)
print(json.dumps({
    "games": games.count(),
    "moves": sum(g.moves.count() for g in games),
    "differ": [g.pk for g in games if replayed_state(g).to_dict() != g.state],
    "sent_before": sorted(sent_before),
    "answers": answers,
    "mails": len(getattr(mail, "outbox", [])),
}))
"""


def test_a_dump_taken_during_play_restores_and_sends_no_mail_twice(tmp_path, settings):
    from games.models import Notification

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": (10**6, 60)}
    games = [started_game([UserFactory(), UserFactory()]) for _ in range(3)]
    for game in games[:2]:
        play_on(game, until=lambda g: g.version >= 12)
    # Some mails went out before the dump; the others are still to send.
    sent = Notification.objects.filter(status="pending").order_by("pk")[:3]
    for row in sent:
        row.status, row.sent_at = "sent", row.created_at
        row.save(update_fields=["status", "sent_at"])
    sent_ids = {row.pk for row in sent}

    playing = threading.Event()

    def play_while_dumping():  # moves committed while pg_dump reads: its snapshot is one moment
        try:
            while not playing.is_set():
                play_on(games[2], until=lambda g, n=games[2].version: g.version >= n + 4)
                if games[2].status != "active":
                    break
        finally:
            connection.close()

    player = threading.Thread(target=play_while_dumping)
    player.start()
    database = connection.settings_dict
    where = ["-h", database["HOST"], "-p", str(database["PORT"]), "-U", database["USER"]]
    dump = tmp_path / "site.dump"
    try:
        subprocess.run(
            ["pg_dump", *where, "--format=custom", "--file", str(dump), database["NAME"]],
            check=True, timeout=120,
        )  # fmt: skip
    finally:
        playing.set()
        player.join(timeout=60)

    restored = f"restore_{uuid.uuid4().hex[:10]}"
    subprocess.run(["createdb", *where, restored], check=True, timeout=60)
    try:
        subprocess.run(
            ["pg_restore", *where, "--no-owner", "--dbname", restored, str(dump)],
            check=True, timeout=120,
        )  # fmt: skip
        url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{restored}"
        env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
        env.pop("PYTEST_XDIST_WORKER", None)
        site = subprocess.run(
            [sys.executable, "-c", ON_THE_RESTORED_SITE],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert site.returncode == 0, site.stderr[-3000:]
        found = json.loads(site.stdout.strip().splitlines()[-1])
    finally:
        subprocess.run(["dropdb", *where, "--if-exists", restored], check=True, timeout=60)

    assert found["games"] == 3 and found["moves"] > 0
    assert found["differ"] == [], "a game's state is not its moves replayed"
    assert set(found["sent_before"]) == sent_ids
    for pk in sent_ids:  # what was sent before the dump is not sent again
        assert found["answers"][str(pk)] == "done"
    sent_now = [pk for pk, answer in found["answers"].items() if answer == "sent"]
    assert found["mails"] == len(sent_now) > 0, found  # the others went out, each once
