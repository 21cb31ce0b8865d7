"""The example bot (examples/bot_client.py, issue 33's "bring your own bot") plays a whole game
against a live server: a person invites their own bot by name to a game with a site bot, the
program (a separate process, the standard library only) accepts the invitation and plays the bot's
seat through the API until the game is over, while the person moves through the services in this
thread and a real Celery worker plays the site's bot. Its strategy is checked on its own first."""

import importlib.util
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from accounts.services import own_bot_create
from games.engine import GameState, Rules, get_bot
from games.invitations import game_invite
from games.models import Game, Move
from games.services import game_create
from tests.api.helpers import token_for
from tests.factories import UserFactory, play_one

CLIENT = Path(__file__).resolve().parents[2] / "examples" / "bot_client.py"
MAX_SECONDS = 120


def example():
    spec = importlib.util.spec_from_file_location("bot_client", CLIENT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def a_view(phase: str, hand: list[str], actions: list[dict], top="9C", wild_rank=3) -> dict:
    return {"phase": phase, "hand": hand, "legal_actions": actions, "top_discard": top,
            "wild_rank": wild_rank}  # fmt: skip


def test_the_example_takes_a_useful_discard_and_else_the_stock():
    choose = example().choose
    draws = [{"type": "draw", "seat": 0, "source": s} for s in ("stock", "discard")]
    assert choose(a_view("draw", ["9H", "KS", "2D"], draws)) == ("draw", {"source": "discard"})
    assert choose(a_view("draw", ["8C", "KS"], draws)) == ("draw", {"source": "discard"})
    assert choose(a_view("draw", ["KS", "2D"], draws, top="3H")) == ("draw", {"source": "discard"})
    assert choose(a_view("draw", ["KS", "2D"], draws)) == ("draw", {"source": "stock"})
    assert choose(a_view("draw", ["9H"], draws[:1])) == ("draw", {"source": "stock"})


def test_the_example_goes_out_when_it_can_and_else_sheds_its_costliest_plain_card():
    choose = example().choose
    discards = [{"type": "discard", "seat": 0, "card": c} for c in ("3S", "JK.1", "QD", "AH")]
    hand = ["3S", "JK.1", "QD", "AH"]
    assert choose(a_view("discard", hand, discards)) == ("discard", {"card": "QD"})
    going_out = [*discards, {"type": "go_out", "seat": 0, "card": "AH"}]
    assert choose(a_view("discard", hand, going_out)) == ("go-out", {"card": "AH"})
    wild_only = discards[:2]
    assert choose(a_view("discard", hand, wild_only)) == ("discard", {"card": "JK.1"})


def play_the_person(game: Game, person, program: subprocess.Popen) -> None:
    """Move for seat 0 (the person) as the easy bot would, whenever it is to move, until the game
    is over, the program has exited, or MAX_SECONDS have passed."""
    easy, rng = get_bot("easy"), random.Random(game.seed)
    deadline = time.monotonic() + MAX_SECONDS
    while time.monotonic() < deadline and program.poll() is None:
        game.refresh_from_db()
        if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
            return
        if game.status == Game.Status.ACTIVE and game.to_move_seat == 0:
            view = GameState.from_dict(game.state).view(0)
            play_one(game, {0: person}, choose=lambda _legal, view=view: easy.choose(view, rng))
        else:
            time.sleep(0.05)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_example_bot_plays_its_seat_to_the_end_of_a_game(
    live_server, worker, short_games, settings, tmp_path
):
    # The program polls every 0.2 s, three requests a look: past a limit of 12 requests in a
    # window of 2 s it meets a 429, and waits as its Retry-After says (a second or three, where
    # the site's own window of a minute would make the test last minutes).
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "api": (12, 2)}
    person = UserFactory()
    robot = own_bot_create(owner=person, username="robo")
    token = token_for(robot, "read", "play")
    game = game_create(
        creator=person, rules=Rules(), seat_count=3, is_public=False, seat_bots=[None, "easy"]
    )
    game_invite(game_id=game.pk, user=person, who="robo")

    # Once, with the token from the environment: the bot takes its seat, which starts the game
    # (and plays its turn if it is the first to move), then the program exits.
    once = subprocess.run(
        [sys.executable, str(CLIENT), "--url", live_server.url, "--once"],
        env={**os.environ, "THREE_THIRTEEN_TOKEN": token}, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert once.returncode == 0, once.stdout + once.stderr
    assert f"invitation to game {game.pk}: accepted" in once.stdout
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE

    log = tmp_path / "bot.log"
    with log.open("w") as out:
        program = subprocess.Popen(
            [sys.executable, str(CLIENT), "--url", live_server.url, "--token", token,
             "--until-game-over", str(game.pk), "--max-seconds", str(MAX_SECONDS),
             "--poll", "0.2"],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            play_the_person(game, person, program)
            code = program.wait(timeout=30)
        finally:
            if program.poll() is None:
                program.kill()
                program.wait()
    output = log.read_text()

    game.refresh_from_db()
    assert code == 0, output
    assert game.status == Game.Status.FINISHED and game.end_reason == "completed", output
    robot_seat = game.seats.get(user=robot).index
    own_moves = Move.objects.filter(game=game, seat=robot_seat)
    assert own_moves.count() > 0 and not own_moves.filter(by_bot=True).exists()
    assert (once.stdout + output).count(f"game {game.pk} round") == own_moves.count()
    assert f"game {game.pk} is over" in output and "too many requests: waiting" in output
