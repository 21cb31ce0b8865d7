"""Bot seats through Celery: a task queued on commit plays the bot's turn through the services,
after the configured delay; twice, or late, it does nothing; the bot decides from its own view
only. The queue here is the test broker, read back as a worker would."""

import contextlib
from datetime import datetime, timedelta

import pytest
from django.db import transaction

from config.celery import app as celery_app
from games import services, tasks
from games.engine import GameState
from games.models import Game, Move
from tests.factories import UserFactory, play_one, started_game

pytestmark = pytest.mark.django_db


def drain(queues=("celery", "bots")) -> list[dict]:
    """Take every task message off the in-memory broker's queues (bot turns have their own)."""
    found = []
    with celery_app.connection_for_write() as connection:
        for name in queues:
            queue = connection.SimpleQueue(name)
            while True:
                try:
                    message = queue.get(block=False)
                except queue.Empty:
                    break
                args = message.payload[0]
                found.append(
                    {"task": message.headers["task"], "args": args, "eta": message.headers["eta"],
                     "queue": name}
                )  # fmt: skip
                message.ack()
            queue.close()
    return found


def run(message) -> object:
    """What a worker does with a message."""
    return celery_app.tasks[message["task"]].apply(args=message["args"]).get()


@pytest.fixture
def human_and_bot(django_capture_on_commit_callbacks):
    human = UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game([human], seat_count=2, bots="easy")
    bot_seat = game.seats.get(user__is_bot=True).index
    drain()
    if game.to_move_seat == bot_seat:  # let the bot open, so that the human is to move
        with django_capture_on_commit_callbacks(execute=True):
            services.bot_play_turn(game_id=game.pk, version=0)
        with django_capture_on_commit_callbacks(execute=True):
            services.bot_play_turn(game_id=game.pk, version=1)
        drain()
    game.refresh_from_db()
    return game, human, bot_seat


def human_turn(game, human, capture):
    """Play the human's turns until the bot is to move (a turn that ends a round, after the bot
    went out, may leave the human to open the next one); the messages of the last are kept."""
    for _ in range(5):
        with capture(execute=True):
            play_one(game, {game.to_move_seat: human})
        assert drain() == []  # drawing leaves the human to move: nothing for a bot
        with capture(execute=True):
            play_one(game, {game.to_move_seat: human})
        game.refresh_from_db()
        if game.to_move_seat != human_seat(game, human):
            return
        drain()
    raise AssertionError("the bot never came to move")


def human_seat(game, human):
    return game.seats.get(user=human).index


def test_a_bot_turn_is_queued_on_commit_after_the_configured_delay(
    human_and_bot, settings, django_capture_on_commit_callbacks
):
    settings.BOT_MOVE_DELAY_SECONDS = 2
    game, human, bot_seat = human_and_bot
    before = datetime.now().astimezone()
    human_turn(game, human, django_capture_on_commit_callbacks)
    after = datetime.now().astimezone()
    game.refresh_from_db()
    assert game.to_move_seat == bot_seat
    [message] = [m for m in drain() if m["task"] == "games.tasks.bot_move"]
    assert message["args"] == [game.pk, game.version]
    assert message["queue"] == "bots"  # a queue of its own, taken in turn with the mail's
    # Queued at some moment between `before` and `after`, for two seconds later (no allowance for
    # a slow machine needed: both ends are read from the same clock as the task's eta).
    delay = timedelta(seconds=2)
    assert before + delay <= datetime.fromisoformat(message["eta"]) <= after + delay


def test_the_bot_plays_its_turn_through_the_worker_and_a_second_run_does_nothing(
    human_and_bot, django_capture_on_commit_callbacks
):
    game, human, bot_seat = human_and_bot
    human_turn(game, human, django_capture_on_commit_callbacks)
    [draw] = drain()
    with django_capture_on_commit_callbacks(execute=True):
        assert run(draw) is True
    [discard] = drain()
    assert run(draw) is False  # the same message again: the game moved on
    with django_capture_on_commit_callbacks(execute=True):
        assert run(discard) is True
    assert run(discard) is False
    game.refresh_from_db()
    assert game.to_move_seat != bot_seat
    bot_moves = Move.objects.filter(game=game, seat=bot_seat).order_by("seq")
    assert [m.action["type"] for m in bot_moves][-2:] in (["draw", "discard"], ["draw", "go_out"])
    assert all(m.by_bot for m in bot_moves)
    # The human is told it is their turn, not the bot.
    assert [m["task"] for m in drain()] == ["games.tasks.send_notification"]


def test_a_bot_task_for_a_finished_game_does_nothing(human_and_bot):
    game, human, _bot_seat = human_and_bot
    services.game_resign(game_id=game.pk, user=human)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert tasks.bot_move.apply(args=(game.pk, game.version)).get() is False


def _bot_action(game) -> dict:
    """The action the bot would play now (played, read, rolled back)."""
    with transaction.atomic():
        services.bot_play_turn(game_id=game.pk, version=game.version)
        action = Move.objects.get(game=game, seq=game.version).action
        transaction.set_rollback(True)
    return action


@pytest.mark.parametrize("kind", ["easy", "medium", "hard", "random"])
def test_a_bot_decides_from_its_own_view_only(kind):
    """Change what the bot may not see (the other hand, the stock): same view, same move."""
    human = UserFactory()
    game = started_game([human], seat_count=2, bots=kind)
    bot_seat = game.seats.get(user__is_bot=True).index
    users = {1 - bot_seat: human}
    compared = 0
    for _ in range(8):
        if game.to_move_seat != bot_seat:
            play_one(game, users)
            continue
        state = GameState.from_dict(game.state)
        original = _bot_action(game)
        hidden = GameState.from_dict(game.state)
        other = 1 - bot_seat
        hidden.hands[other][0], hidden.stock[0] = hidden.stock[0], hidden.hands[other][0]
        hidden.hands[other].reverse()
        hidden.stock.reverse()
        assert hidden.view(bot_seat).to_dict() == state.view(bot_seat).to_dict()
        assert hidden.to_dict() != state.to_dict()
        Game.objects.filter(pk=game.pk).update(state=hidden.to_dict())
        game.refresh_from_db()
        assert _bot_action(game) == original
        compared += 1
        services.bot_play_turn(game_id=game.pk, version=game.version)
        game.refresh_from_db()
    assert compared >= 3


def test_the_bot_plays_a_seat_on_autopilot_or_resigned_but_never_a_person_playing():
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    game = started_game([a, b, c])
    seat = game.seats.get(index=game.to_move_seat)
    assert services.bot_play_turn(game_id=game.pk, version=game.version) is False
    seat.autopilot = True
    seat.save(update_fields=["autopilot"])
    assert services.bot_play_turn(game_id=game.pk, version=game.version) is True
    assert Move.objects.get(game=game, seq=game.version).by_bot


@contextlib.contextmanager
def broker_down_now():
    """The app's broker pointed at a port where nothing listens (a real refused connection)."""
    conf = celery_app.conf  # the namespaced keys are the ones the app reads
    saved = conf["CELERY_BROKER_URL"], conf["CELERY_BROKER_TRANSPORT_OPTIONS"]
    conf["CELERY_BROKER_URL"], conf["CELERY_BROKER_TRANSPORT_OPTIONS"] = "redis://127.0.0.1:9/0", {}
    celery_app._pool = celery_app.amqp._producer_pool = None
    assert celery_app.connection_for_write().as_uri().endswith("127.0.0.1:9/0")
    try:
        yield
    finally:
        conf["CELERY_BROKER_URL"], conf["CELERY_BROKER_TRANSPORT_OPTIONS"] = saved
        celery_app._pool = celery_app.amqp._producer_pool = None


@pytest.mark.django_db(transaction=True)
def test_a_move_that_hands_the_turn_to_a_bot_stands_when_the_broker_is_down(client):
    """The commit hook that queues the bot's turn fails; the player still gets the table, the
    move is saved, and the sweep queues the bot's turn later."""
    human = UserFactory()
    game = started_game([human], seat_count=2, bots="easy")
    drain()
    bot_seat = game.seats.get(user__is_bot=True).index
    while True:  # to a discard of the human's that hands the turn to the bot
        if game.to_move_seat == bot_seat:
            services.bot_play_turn(game_id=game.pk, version=game.version)
        else:
            state = GameState.from_dict(game.state)
            action = state.legal_actions()[0]
            if state.phase == "discard" and action.card:
                state.apply(action)
                if state.to_move == bot_seat:
                    discard = action
                    break
            play_one(game, {game.to_move_seat: human})
        game.refresh_from_db()
    client.force_login(human)
    with broker_down_now():
        response = client.post(
            f"/games/{game.pk}/discard/",
            {"card": discard.card.token, "version": game.version},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200 and 'id="table"' in response.content.decode()
    game.refresh_from_db()
    assert Move.objects.filter(game=game).count() == game.version
    assert game.to_move_seat != human_seat(game, human)
