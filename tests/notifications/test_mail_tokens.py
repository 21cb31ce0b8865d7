"""The signed names of a turn (games/notifications/reply_tokens.py)."""

import pytest

from games.notifications.reply_tokens import (
    TurnRef,
    reply_address,
    reply_read,
    turn_read,
    turn_token,
)

TURN = TurnRef(game_id=12, seat=1, version=40)


def test_a_reply_address_names_its_turn_and_reads_back_in_any_case(settings):
    settings.MAIL_PLAY_ADDRESS = "play@example.org"
    address = reply_address(TURN)
    local = address.split("@")[0]
    assert address.startswith("play+12-1-40-") and address.endswith("@example.org")
    assert len(local) <= 64 and local == local.lower()
    assert reply_read(address) == TURN
    assert reply_read(address.upper()) == TURN
    assert reply_read(f"<{address}>") == TURN


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.replace("12-1-40", "13-1-40"),  # another game
        lambda t: t.replace("12-1-40", "12-0-40"),  # another seat
        lambda t: t.replace("12-1-40", "12-1-41"),  # another version
        lambda t: t[:-1] + ("0" if t[-1] != "0" else "1"),  # the signature altered
        lambda t: t[:-2],  # cut short
        lambda t: "",
        lambda t: "12-1-40-" + "0" * 24,  # a made-up signature
    ],
)
def test_an_altered_or_forged_token_names_nothing(change):
    assert turn_read(change(turn_token(TURN))) is None


def test_a_links_token_names_its_action_and_is_no_reply_address(settings):
    settings.MAIL_PLAY_ADDRESS = "play@example.org"
    link = TurnRef(12, 1, 40, "d.7h")
    assert turn_read(turn_token(link)) == link
    assert turn_read(turn_token(link).replace("d.7h", "d.8h")) is None
    assert reply_read(f"play+{turn_token(link)}@example.org") is None


def test_an_address_elsewhere_names_nothing(settings):
    settings.MAIL_PLAY_ADDRESS = "play@example.org"
    token = turn_token(TURN)
    assert reply_read(f"play+{token}@elsewhere.org") is None
    assert reply_read(f"other+{token}@example.org") is None
    assert reply_read("play@example.org") is None
    assert reply_read("junk") is None
