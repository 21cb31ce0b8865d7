"""Run by the fault tests as a process of the app (their settings, their private servers):
`python -m tests.faults.scene`, which makes three players, a game between two of them and a game
of the third against a bot, logs each in, and prints what the tests need as JSON."""

import json
import sys
import uuid

import django


def scene(bot_kind: str) -> dict:
    from django.test import Client

    from tests.factories import UserFactory, started_game

    tag = uuid.uuid4().hex[:8]
    ann, ben, cat = (
        UserFactory(
            username=f"{name}-{tag}",
            display_name=f"{name} {tag}",
            email=f"{name}-{tag}@example.com",
        )
        for name in ("ann", "ben", "cat")
    )
    people = started_game([ann, ben], time_per_move_days=1)
    bots = started_game([cat], bots=bot_kind, seat_count=2, time_per_move_days=1)
    sessions = {}
    for user in (ann, ben, cat):
        client = Client()
        client.force_login(user)
        sessions[user.pk] = client.cookies["sessionid"].value
    return {
        "games": {
            str(game.pk): {
                str(seat.index): None if seat.user.is_bot else sessions[seat.user_id]
                for seat in game.seats.select_related("user")
            }
            for game in (people, bots)
        },
        "people": people.pk,
        "bots": bots.pk,
    }


if __name__ == "__main__":
    django.setup()
    print(json.dumps(scene(sys.argv[1] if len(sys.argv) > 1 else "easy")))
