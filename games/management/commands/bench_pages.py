"""Time the pages a player uses most, in-process, on a game in round 3. Run it on a throwaway
database: `make bench` gives it one (VAR_DIR in a temporary folder)."""

import random
import statistics
import time

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.engine import GameState, Rules, get_bot
from games.models import Game


class Command(BaseCommand):
    help = "Print median and p99 times of the table, poll, dashboard and history pages."

    def add_arguments(self, parser):
        parser.add_argument("--requests", type=int, default=200)

    def handle(self, *args, requests, **options):
        call_command("migrate", verbosity=0)
        game, player = self._game_in_round_3()
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(player)
        table = reverse("game", args=[game.pk])
        poll = reverse("game_table", args=[game.pk])
        pages = [
            ("table page", table, {}),
            ("table partial after a change", poll, {"v": "0"}),
            ("poll, nothing new (204)", poll, {"v": str(game.version)}),
            ("dashboard", reverse("home"), {}),
            ("move history", reverse("game_history", args=[game.pk]), {}),
        ]
        self.stdout.write(f"pages, {requests} requests each, in-process ({game.version} moves)")
        for name, url, query in pages:
            times = []
            for _ in range(requests):
                start = time.perf_counter()
                status = client.get(url, query).status_code
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            p99 = times[max(0, int(len(times) * 0.99) - 1)]
            median = statistics.median(times)
            self.stdout.write(f"  {name:30s} {status}  median {median:6.2f} ms  p99 {p99:6.2f} ms")

    def _game_in_round_3(self) -> tuple[Game, User]:
        suffix = random.randrange(10**9)
        players = [User.objects.create_user(f"bench{suffix}-{i}") for i in range(2)]
        game = services.game_create(creator=players[0], rules=Rules(), seat_count=3)
        services.game_join(game_id=game.pk, user=players[1])
        services.game_fill_with_bots(game_id=game.pk, user=players[0], bot_kind="easy")
        services.game_start(game_id=game.pk, user=players[0])
        seats = {s.index: s.user for s in game.seats.select_related("user")}
        rng, bot = random.Random(suffix), get_bot("easy")
        game.refresh_from_db()
        while game.state["round_index"] < 2 or seats[game.to_move_seat] != players[0]:
            if seats[game.to_move_seat].is_bot:
                services.bot_play_turn(game_id=game.pk, version=game.version)
            else:
                view = GameState.from_dict(game.state).view(game.to_move_seat)
                action = bot.choose(view, rng)
                services.move_play(
                    game_id=game.pk, user=seats[action.seat], version=game.version,
                    build=lambda seat, action=action: action,
                )  # fmt: skip
            game.refresh_from_db()
        return game, players[0]
