"""A game's changes as server-sent events (games/events.py, views/events.py, the API's
/games/{id}/events): a stream served by ASGI hears a move as it is committed, on Redis and
without it; only those who may watch the table may open it; a WSGI server and a game over answer
204 (the browser then polls)."""

import asyncio
import contextlib
import json
import re
import time

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.test import AsyncClient, Client
from django.urls import reverse

from games import chat, events, services
from games.models import Game
from tests.api.helpers import token_for
from tests.factories import UserFactory, finish_game, started_game

pytestmark = pytest.mark.django_db


def read_after_move(client, url, move, *, headers=None, wait=3.0) -> tuple[int, list[str]]:
    """Open the stream through ASGI, make `move` once it listens, and return its status and
    what it said within `wait` seconds."""

    async def main():
        response = await client.get(url, headers=headers or {})
        if response.status_code != 200:
            return response.status_code, []
        chunks = response.streaming_content.__aiter__()
        said = [await chunks.__anext__()]  # the retry hint; then it subscribes
        listening = asyncio.ensure_future(chunks.__anext__())
        await until_listening(url, listening)
        await sync_to_async(move)()
        try:
            while "event: changed" not in "".join(map(str, said)):
                said.append(await asyncio.wait_for(asyncio.shield(listening), wait))
                listening = asyncio.ensure_future(chunks.__anext__())
        except TimeoutError:
            pass
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
            await listening
        await chunks.aclose()
        return 200, [c.decode() if isinstance(c, bytes) else c for c in said]

    return async_to_sync(main)()


async def until_listening(url: str, first_line, deadline: float = 5.0) -> None:
    """Until the stream is listening (not a fixed sleep): on Redis, its game's channel has a
    subscriber; looking at the row instead (no Redis, or Redis down), it has said its first line,
    which comes after its first look."""
    game_id = int(re.search(r"/games/(\d+)/", url).group(1))

    def subscribed() -> bool:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=0.2)
        try:
            return client.pubsub_numsub(events.channel(game_id))[0][1] > 0
        except redis.RedisError:  # none answering: the stream looks at the row instead
            return False
        finally:
            client.close()

    until = time.monotonic() + deadline
    while time.monotonic() < until:
        if first_line.done() or (settings.REDIS_URL and await sync_to_async(subscribed)()):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the stream at {url} was not listening within {deadline} s")


@pytest.fixture
def game():
    return started_game([UserFactory(), UserFactory()], is_public=False)


def draw(game, django_capture_on_commit_callbacks):
    def move():
        mover = game.seats.get(index=game.to_move_seat).user
        with django_capture_on_commit_callbacks(execute=True):
            services.move_draw(game_id=game.pk, user=mover, version=game.version, source="stock")

    return move


@pytest.mark.redis
def test_the_table_hears_a_move_as_it_is_committed(game, django_capture_on_commit_callbacks):
    client = AsyncClient()
    async_to_sync(client.aforce_login)(game.seats.get(index=0).user)
    url = reverse("game_events", args=[game.pk])
    status, said = read_after_move(client, url, draw(game, django_capture_on_commit_callbacks))
    assert status == 200 and said[0].startswith("retry:")
    assert f'"v": {game.version + 1}' in said[-1] and said[-1].startswith("event: changed")


def test_without_redis_the_stream_looks_at_the_row(
    game, settings, django_capture_on_commit_callbacks
):
    settings.REDIS_URL = ""
    client = AsyncClient()
    async_to_sync(client.aforce_login)(game.seats.get(index=1).user)
    url = reverse("game_events", args=[game.pk])
    _status, said = read_after_move(client, url, draw(game, django_capture_on_commit_callbacks))
    assert said[-1].startswith("event: changed")


@pytest.mark.redis
def test_a_program_hears_it_through_the_api(game, django_capture_on_commit_callbacks):
    token = token_for(game.seats.get(index=1).user, "read")
    url = f"/api/v1/games/{game.pk}/events"
    status, said = read_after_move(
        AsyncClient(), url, draw(game, django_capture_on_commit_callbacks),
        headers={"Authorization": f"Bearer {token}"},
    )  # fmt: skip
    assert status == 200 and said[-1].startswith("event: changed")


def test_only_who_may_watch_opens_it(game):
    stranger = AsyncClient()
    async_to_sync(stranger.aforce_login)(UserFactory())
    url = reverse("game_events", args=[game.pk])
    assert async_to_sync(stranger.get)(url).status_code == 404
    assert async_to_sync(AsyncClient().get)(url).status_code == 404
    token = token_for(UserFactory(), "read")
    api = f"/api/v1/games/{game.pk}/events"
    headers = {"Authorization": f"Bearer {token}"}
    assert async_to_sync(AsyncClient().get)(api, headers=headers).status_code == 404
    assert async_to_sync(AsyncClient().get)(api).status_code == 401
    play_only = {"Authorization": f"Bearer {token_for(game.seats.first().user, 'play')}"}
    assert async_to_sync(AsyncClient().get)(api, headers=play_only).status_code == 403


def test_wsgi_and_a_game_over_answer_204(game):
    client = Client()
    client.force_login(game.seats.get(index=0).user)
    assert client.get(reverse("game_events", args=[game.pk])).status_code == 204
    finish_game(Game.objects.get(pk=game.pk))
    asgi = AsyncClient()
    async_to_sync(asgi.aforce_login)(game.seats.get(index=0).user)
    assert async_to_sync(asgi.get)(reverse("game_events", args=[game.pk])).status_code == 204


@pytest.mark.postgres  # SQLite's test database lives in memory: Django never closes its connection
@pytest.mark.django_db(transaction=True)
def test_an_open_stream_holds_no_database_connection():
    """A stream lives for minutes, one per open table: the look at who may watch gives its
    connection back at once (else some hundred open tables would use up PostgreSQL's)."""
    from django.db import connection

    game = started_game([UserFactory(), UserFactory()], is_public=False)
    client = AsyncClient()
    async_to_sync(client.aforce_login)(game.seats.get(index=0).user)
    connection.close()

    async def open_stream():
        response = await client.get(reverse("game_events", args=[game.pk]))
        chunks = response.streaming_content.__aiter__()
        first = await chunks.__anext__()
        held = await sync_to_async(lambda: connection.connection is not None)()
        await chunks.aclose()
        return response.status_code, first, held

    status, first, held = async_to_sync(open_stream)()
    assert status == 200 and first.startswith(b"retry:")
    assert not held


def test_an_event_says_when_it_is_the_chat_or_the_end(
    game, monkeypatch, settings, django_capture_on_commit_callbacks
):
    """A table that shows the event's version asks for nothing, but for the chat or the end."""

    settings.REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/0"
    published = []

    class Client:
        def publish(self, channel, message):
            published.append(json.loads(message))

    monkeypatch.setattr(events, "_redis", lambda: Client())
    player = game.seats.get(index=0).user
    with django_capture_on_commit_callbacks(execute=True):
        chat.chat_post(game_id=game.pk, user=player, text="hello")
    with django_capture_on_commit_callbacks(execute=True):
        services.game_resign(game_id=game.pk, user=player)
    assert published[0]["chat"] is True and "over" not in published[0]
    assert published[-1]["over"] is True and published[-1]["v"] == game.version


def test_with_redis_down_the_stream_looks_at_the_row(
    game, settings, django_capture_on_commit_callbacks
):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    client = AsyncClient()
    async_to_sync(client.aforce_login)(game.seats.get(index=1).user)
    url = reverse("game_events", args=[game.pk])
    _status, said = read_after_move(client, url, draw(game, django_capture_on_commit_callbacks))
    assert said[-1].startswith("event: changed")


def test_a_stream_whose_request_is_gone_ends_quietly(game, caplog):
    """Reloading the table right after going out logged asgiref's "CurrentThreadExecutor
    already quit or is broken" from the stream under uvicorn: work sent to the request's thread
    after its context ended. The stream ends there, with no traceback."""

    async def tick_after_the_request():
        raise RuntimeError("CurrentThreadExecutor already quit or is broken")

    async def read_all():
        return [
            chunk async for chunk in events.game_events(game.pk, on_tick=tick_after_the_request)
        ]

    said = async_to_sync(read_all)()
    assert said[0].startswith("retry:") and len(said) == 2  # the hint, one keep-alive, the end
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


def test_any_other_error_in_a_stream_is_not_swallowed(game):
    async def broken_tick():
        raise RuntimeError("something else")

    async def read_all():
        return [chunk async for chunk in events.game_events(game.pk, on_tick=broken_tick)]

    with pytest.raises(RuntimeError, match="something else"):
        async_to_sync(read_all)()


@pytest.mark.django_db(transaction=True)
def test_a_viewer_holds_a_few_streams_at_once_and_one_more_is_refused(monkeypatch):
    """A script held hundreds of half-open streams: past the cap a table's stream (and the
    API's) answers 429, the table polls; a stream closed gives its place back."""
    monkeypatch.setattr(events, "MAX_STREAMS_PER_VIEWER", 2)
    game = started_game([UserFactory(), UserFactory()], is_public=False)
    player = game.seats.get(index=0).user
    client = AsyncClient()
    async_to_sync(client.aforce_login)(player)
    bearer = {"Authorization": f"Bearer {token_for(player)}"}
    api = AsyncClient()
    table_url = reverse("game_events", args=[game.pk])

    async def opened(response):
        """The stream as the server sends it: its first line read; closing it as the server
        does when the client goes away (the response's close())."""
        await response.streaming_content.__aiter__().__anext__()
        return response

    async def main():
        first = await client.get(table_url)
        second = await api.get(f"/api/v1/games/{game.pk}/events", headers=bearer)
        statuses = [first.status_code, second.status_code]
        streams = [await opened(first), await opened(second)]
        third = await client.get(table_url)
        fourth = await api.get(f"/api/v1/games/{game.pk}/events", headers=bearer)
        statuses += [third.status_code, fourth.status_code]
        detail = fourth.json()["detail"]
        await sync_to_async(streams[0].close)()  # a place given back
        again = await client.get(table_url)
        if again.status_code == 200:
            await sync_to_async((await opened(again)).close)()
        await sync_to_async(streams[1].close)()
        return statuses, detail, again.status_code

    statuses, detail, again = async_to_sync(main)()
    assert statuses == [200, 200, 429, 429] and "too many" in detail
    assert again == 200
