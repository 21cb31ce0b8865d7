"""Time the pages a player uses most, in-process, on a game in round 3; then the dashboard and
the table partial again once the player has 10,000 finished games. Run it on a throwaway
database: `make bench` gives it one (VAR_DIR in a temporary folder, SQLite; with DATABASE_URL, a
PostgreSQL database of yours)."""

import random
import statistics
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.template import engines
from django.template.loader import get_template
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from devtools.timing import time_page
from games import services
from games.engine import GameState, Rules, get_bot
from games.models import Game, Seat
from games.presentation import card_info
from games.selectors import table, viewer
from loadtest.table import marks_of

TABLE_ASKS = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "table"}
CARD_ROW = "{% load cards %}{% for c in cards %}{% card c %}{% endfor %}"


class Command(BaseCommand):
    help = "Print median and p99 times of the table, poll, dashboard and history pages."

    def add_arguments(self, parser):
        parser.add_argument("--requests", type=int, default=200)
        parser.add_argument(
            "--history",
            type=int,
            default=10_000,
            help="Then time the dashboard and the table partial again after this many finished "
            "games.",
        )

    def handle(self, *args, requests, history, **options):
        call_command("migrate", verbosity=0)
        game, player = self._game_in_round_3()
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(player)
        table = reverse("game", args=[game.pk])
        poll = reverse("game_table", args=[game.pk])
        # What the page holds (its #table-marks), as it sends them after another's move: its
        # version one behind, the same round and hand. The answer is the table's parts.
        held = marks_of(client.get(table).content.decode())
        pages = [
            ("table page", table, {}, {}),
            ("table partial after a change", poll, {"v": "0"}, {}),
            ("table parts after another's move", poll,
             {**held, "v": str(game.version - 1)}, TABLE_ASKS),
            ("poll, nothing new (204)", poll, {"v": str(game.version)}, {}),
            ("dashboard", reverse("home"), {}, {}),
            ("move history", reverse("game_history", args=[game.pk]), {}, {}),
        ]  # fmt: skip
        self.stdout.write(f"pages, {requests} requests each, in-process ({game.version} moves)")
        medians = {}
        for name, url, query, headers in pages:
            medians[name] = self._time(client, name, url, query, requests, headers)
        self._templates(game, player, requests)
        # Faster than a person asks: the limit (RATE_LIMITS["advice"]) is lifted.
        with override_settings(RATE_LIMITS={**settings.RATE_LIMITS, "advice": (10**6, 60)}):
            for seats in (2, 4):
                self._advice(seats)
        if history:
            self._finished_games(player, history)
            targets = {"dashboard": 2, "table partial after a change": 1.2,
                       "table parts after another's move": 1.2}  # fmt: skip
            for name, url, query, headers in pages:
                if name not in targets:
                    continue
                target = targets[name]
                after = self._time(
                    client, f"{name}, {history} finished", url, query, requests, headers
                )
                ratio = after / medians[name]
                verdict = "met" if ratio <= target else "NOT met"
                self.stdout.write(
                    f"  {name} at {history} finished games: {ratio:.2f}x "
                    f"(target {target}x: {verdict})"
                )

    def _advice(self, seat_count: int) -> None:
        """The hard bot's advice (/games/N/advice/), asked at every decision of a person who
        plays a whole game as the medium level against medium bots."""
        person = User.objects.create_user(f"bench-advice-{random.randrange(10**9)}")
        game = services.game_create(creator=person, rules=Rules(), seat_count=seat_count)
        services.game_fill_with_bots(game_id=game.pk, user=person, bot_kind="medium")
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(person)
        url = reverse("game_advice", args=[game.pk])
        rng, bot, times = random.Random(seat_count), get_bot("medium"), []
        game.refresh_from_db()
        while game.status == Game.Status.ACTIVE:
            seat = game.seats.get(index=game.to_move_seat)
            if seat.user_id != person.pk:
                services.bot_play_turn(game_id=game.pk, version=game.version)
            else:
                start = time.perf_counter()
                response = client.get(url, {"v": game.version}, HTTP_HX_REQUEST="true")
                times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200, response.content
                action = bot.choose(GameState.from_dict(game.state).view(seat.index), rng)
                services.move_play(
                    game_id=game.pk, user=person, version=game.version,
                    build=lambda seat, action=action: action,
                )  # fmt: skip
            game.refresh_from_db()
        times.sort()
        self.stdout.write(
            f"  the hard bot's advice, {seat_count} seats, a whole game ({len(times)} asked): "
            f"median {statistics.median(times):6.2f} ms  p95 {times[int(0.95 * len(times))]:6.2f} "
            f"ms  max {times[-1]:6.2f} ms"
        )

    def _templates(self, game: Game, player: User, requests: int) -> None:
        """What the template engine alone costs: the table's answers drawn from a context built
        once, and one card (the `card` tag, a hundred in a row)."""
        game, seat = viewer.game_for_viewer(game.pk, player)
        whole = table.table(game, seat)
        parts = table.table(game, seat, parts=True, hand_shown=whole["hand_mark"])
        request = RequestFactory().get("/")
        request.user = player
        common = {"game": game, "me": seat, "poll_seconds": 5, "chat_version": 0}
        cards = [card_info(c) for c in GameState.new(Rules(), 2, "bench").stock[:100]]
        drawn = [
            ("whole partial", get_template("games/table.html#answer"), {**common, **whole}, 1),
            ("the parts", get_template("games/table.html#parts"), {**common, **parts}, 1),
            ("one card", engines["django"].from_string(CARD_ROW), {"cards": cards}, len(cards)),
        ]
        self.stdout.write("the template engine alone (a context built once):")
        for name, page, context, per in drawn:
            times = []
            for _ in range(requests):
                start = time.perf_counter()
                page.render(context, request)
                times.append((time.perf_counter() - start) * 1000 / per)
            median = statistics.median(times)
            shown = f"{median:6.3f} ms" if per == 1 else f"{median * 1000:6.1f} µs each"
            self.stdout.write(f"  {name:30s} median {shown}")

    def _time(self, client, name, url, query, requests, headers=None) -> float:
        page = time_page(client, url, query, requests, warmup=0, headers=headers)
        self.stdout.write(
            f"  {name:30s} {page.status}  median {page.median:6.2f} ms  "
            f"p99 {page.percentile(0.99):6.2f} ms"
        )
        return page.median

    def _finished_games(self, player: User, count: int) -> None:
        """`count` finished two-player games of `player`, bulk-inserted, each with a full-size
        state snapshot (what the dashboard must never load)."""
        opponent = User.objects.create_user(f"{player.username}-rival")
        snapshot = GameState.new(Rules(), 2, "bench").to_dict()
        now = timezone.now()
        for start in range(0, count, 1000):
            games = Game.objects.bulk_create(
                Game(created_by=player, status=Game.Status.FINISHED, rules=Rules().to_dict(),
                     seat_count=2, state=snapshot, version=400, started_at=now, finished_at=now,
                     end_reason=Game.EndReason.COMPLETED, round_index=10)
                for _ in range(start, min(count, start + 1000))
            )  # fmt: skip
            Seat.objects.bulk_create(
                Seat(
                    game=game,
                    index=index,
                    user=user,
                    final_rank=index + 1,
                    final_total=50,
                    finished_at=now,
                )
                for game in games
                for index, user in enumerate((player, opponent))
            )

    def _game_in_round_3(self) -> tuple[Game, User]:
        suffix = random.randrange(10**9)
        players = [User.objects.create_user(f"bench{suffix}-{i}") for i in range(2)]
        game = services.game_create(creator=players[0], rules=Rules(), seat_count=3)
        services.game_join(game_id=game.pk, user=players[1])
        # The last seats taken: the game starts.
        services.game_fill_with_bots(game_id=game.pk, user=players[0], bot_kind="medium")
        seats = {s.index: s.user for s in game.seats.select_related("user")}
        rng, bot = random.Random(suffix), get_bot("medium")
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
