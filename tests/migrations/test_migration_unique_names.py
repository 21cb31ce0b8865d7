"""accounts 0012: the names set before display names were unique are made unique, then the
database holds them so. Run on the tables as 0011 left them (the migration executor)."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def wide(text: str) -> str:
    """`text` (letters and digits) in their full-width forms."""
    return "".join(chr(ord(char) + 0xFEE0) for char in text)


pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0011_display_name_without_bidi_marks")]
AFTER = [("accounts", "0012_shown_names_unique")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_later_duplicates_get_a_number_and_the_rest_stay():
    User = migrate(BEFORE).get_model("accounts", "User")
    try:
        made = {}
        for username, display_name, is_bot in [
            ("alice", "Alice", False),
            ("dave", "ALICE", False),  # the same name, later
            ("erin", wide("alice"), False),  # and again, in full width
            ("frank", "alice 2", False),  # the number the second would take
            ("gina", "Bob", False),  # another account's username
            ("bob", "", False),  # shown by the username: keeps it
            ("hank", "Hard Bot", False),  # a bot's name
            ("bot-hard", "Hard Bot", True),
            ("ivy", "Ivy", False),  # nothing to change
            ("jon", "", False),
            ("JON", "", False),  # an older username differing in case alone
        ]:
            made[username] = User.objects.create(
                username=username, display_name=display_name, is_bot=is_bot,
                bot_kind="hard" if is_bot else "",
            ).pk  # fmt: skip
        User = migrate(AFTER).get_model("accounts", "User")
        names = dict(User.objects.values_list("username", "display_name"))
        assert names == {
            "alice": "Alice",
            "dave": "ALICE 3",
            "erin": wide("alice") + " 4",
            "frank": "alice 2",
            "gina": "Bob 2",
            "bob": "",
            "hank": "",  # "Hard Bot 2" is a bot's name too: shown by the username instead
            "bot-hard": "Hard Bot",
            "ivy": "Ivy",
            "jon": "",
            "JON": "JON 2",
        }
        keys = list(User.objects.values_list("name_key", flat=True))
        assert len(keys) == len(set(keys)) == len(made) and "" not in keys
    finally:  # the latest schema again, for the tests after this one
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def test_names_that_read_alike_by_their_look_alike_letters_are_numbered():
    """accounts 0015: look-alike letters fold too (validators.fold_name, name_shape). The rows are
    written as 0014 kept them: the name_key of the fold of then."""
    fold_then = importlib.import_module("accounts.migrations.0012_shown_names_unique").fold_then
    User = migrate([("accounts", "0014_api_tokens_own_bots")]).get_model("accounts", "User")
    try:
        rows = [
            ("alice", ""),
            ("\u0430lice", ""),  # a Cyrillic a: the same name, later
            ("bob1", "Robert"),  # behind a display name
            ("carol", "BOBl"),  # reads as bob1's username
            ("dave", "Hard B0t"),  # a bot's name with a zero
            ("erin", "Erin"),  # nothing to change
        ]
        made = {}
        for username, display_name in rows:
            pk = User.objects.create(username=f"tmp-{len(made)}").pk
            User.objects.filter(pk=pk).update(
                username=username, display_name=display_name,
                name_key=fold_then(display_name or username),
            )  # fmt: skip
            made[username] = pk
        User = migrate([("accounts", "0015_names_read_by_their_lookalikes")]).get_model(
            "accounts", "User"
        )
        names = dict(User.objects.values_list("username", "display_name"))
        assert names == {
            "alice": "",
            "\u0430lice": "\u0430lice 2",
            "bob1": "Robert",
            "carol": "BOBl 2",
            "dave": "",
            "erin": "Erin",
        }
        keys = dict(User.objects.values_list("username", "username_key"))
        assert keys["\u0430lice"] == keys["alice"] == "alice" and keys["bob1"] == "bobl"
    finally:  # the latest schema again, for the tests after this one
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
