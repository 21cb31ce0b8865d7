"""Seed the load test's players and games: `python -m loadtest.seed --players N --prefix P --out F`.

Each game has three seats: two of the seeded players and a bot (easy and medium in turn), and is
started through the same services a host's clicks call, so the bot's turns go to the Celery
worker. Writes the players (username, password, game id, an API token) as JSON for the
locustfile."""

import argparse
import json
import os

import django

PASSWORD = "load-test-password"  # throwaway accounts in a throwaway database


def seed(*, players: int, prefix: str) -> list[dict]:
    from django.contrib.auth.hashers import make_password

    from accounts.api_tokens import token_create
    from accounts.models import User
    from accounts.services import bots_ensure
    from games import services
    from games.engine import Rules

    bots_ensure()
    password = make_password(PASSWORD)
    users = User.objects.bulk_create(
        User(username=f"{prefix}{i:04d}", password=password, table_tour_done=True)
        for i in range(players)
    )
    seeded = []
    for first in range(0, players - 1, 2):
        host, guest = users[first], users[first + 1]
        game = services.game_create(
            creator=host, rules=Rules(), seat_count=3, time_per_move_days=3, is_public=False
        )
        services.game_join(game_id=game.pk, user=guest, invite_code=game.invite_code)
        bot = "easy" if first % 4 == 0 else "medium"
        # The last seats taken: the game starts.
        services.game_fill_with_bots(game_id=game.pk, user=host, bot_kind=bot)
        seeded += [
            {"username": user.username, "password": PASSWORD, "game": game.pk,
             "token": token_create(user=user, name="load", scopes={"read", "play"},
                                   expires_in_days=None)[1]}
            for user in (host, guest)
        ]  # fmt: skip
    return seeded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True, help="an even number")
    parser.add_argument("--prefix", required=True, help="usernames are the prefix and a number")
    parser.add_argument("--out", required=True, help="where to write the players as JSON")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.loadtest")
    django.setup()
    players = seed(players=args.players, prefix=args.prefix)
    with open(args.out, "w") as out:
        json.dump(players, out)


if __name__ == "__main__":
    main()
