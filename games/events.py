"""A game's changes as they happen, for the table and the API (docs/api.md, "Events"): whenever
a game is saved (a move, a start, an end) or its chat grows, "game N changed" is published on
Redis after the commit; a stream (server-sent events) passes it to every open table of that game,
which then asks for what changed as its poll would (and gets only what its viewer may see). The
event itself carries nothing but the game's version, a time stamp, and whether it was the chat or
the game's end (else a table that shows that version already asks for nothing). Without Redis
(the embedded default), or with Redis down, a stream looks at the game's row five times a second.

A stream needs an ASGI server (uvicorn: `manage.py serve`, and in production one uvicorn process
beside the pages' WSGI workers, docs/operations.md), where it costs a coroutine, not a worker;
served by WSGI it answers 204, which tells the browser not to reconnect, and the table keeps its
poll."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models.signals import post_save
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from .errors import GameError
from .metrics import STREAMS
from .models import Game

log = logging.getLogger(__name__)

STREAM_SECONDS = 300  # then the browser reconnects (EventSource does by itself)
KEEP_ALIVE_SECONDS = 15  # a comment line, so that proxies keep the connection open
RETRY_MILLISECONDS = 2000
DB_LOOK_SECONDS = 0.2  # without Redis: a look is one row by its key


def channel(game_id: int) -> str:
    """The game's Redis channel; channels span Redis's databases, so the name holds the site's."""
    return f"tt:{settings.REDIS_URL.rsplit('/', 1)[-1]}:game:{game_id}"


_clients = {}


def _redis():
    """The process's Redis client for publishing (one per address)."""
    if settings.REDIS_URL not in _clients:
        import redis

        _clients[settings.REDIS_URL] = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
        )
    return _clients[settings.REDIS_URL]


def game_changed(game_id: int, version: int, *, chat: bool = False, over: bool = False) -> None:
    """After the commit: tell the game's streams it changed (its chat: `chat`; it ended or was
    cancelled: `over`). Redis down: nothing is lost but speed (the tables' poll catches up)."""
    if not settings.REDIS_URL:
        return

    def publish():
        message = json.dumps(_data(version, chat=chat, over=over))
        try:
            _redis().publish(channel(game_id), message)
        except Exception as error:  # a lost event only delays a table
            log.warning("game %s: event not published (%s)", game_id, error)

    transaction.on_commit(publish)


def on_game_saved(sender, instance, **kwargs) -> None:
    """Every save of a game (a move, a start, an end, a seat given up) is news to its open
    tables: one hook for every write that changes what a table shows."""
    over = instance.status in (Game.Status.FINISHED, Game.Status.CANCELLED)
    game_changed(instance.pk, instance.version, over=over)


def connect() -> None:
    """Listen to the games' saves (the app's ready(); held strongly: a receiver only weakly held
    was collected, and no move was ever published)."""
    post_save.connect(on_game_saved, sender=Game, weak=False, dispatch_uid="games.events")


def release_connection() -> None:
    """Give back this thread's database connection (to the pool, or closed): a stream lives for
    minutes and would hold it all that time, one per open table. Not inside a transaction (a
    test's own)."""
    if not connection.in_atomic_block:
        connection.close()


async def look_then_release(work: Callable, *args, **kwargs):
    """`work` run in the request's thread, its database connection given back after."""

    def run():
        try:
            return work(*args, **kwargs)
        finally:
            release_connection()

    return await sync_to_async(run)()


def _data(version, *, chat: bool = False, over: bool = False) -> dict:
    """An event's data: the version, the time it was published, and `chat`/`over` when true. A
    table that shows that version already asks for nothing unless one of those is set."""
    return (
        {"v": version, "t": time.time()}
        | ({"chat": True} if chat else {})
        | ({"over": True} if over else {})
    )


def _event(data: dict) -> str:
    return f"event: changed\ndata: {json.dumps(data)}\n\n"


async def game_events(
    game_id: int, *, on_tick: Callable[[], Awaitable[None]] | None = None
) -> AsyncIterator[str]:
    """The stream's text: a retry hint, then an event at each change of the game, a keep-alive
    line (and `on_tick`, the viewer's presence) between, for STREAM_SECONDS."""
    yield f"retry: {RETRY_MILLISECONDS}\n\n"
    changes = _changes(game_id)
    deadline = time.monotonic() + STREAM_SECONDS
    next_tick = 0.0
    try:
        async for data in changes:
            if data is not None:
                yield _event(data)
            now = time.monotonic()
            if now >= next_tick:
                if data is None:
                    yield ": keep-alive\n\n"
                if on_tick is not None:
                    await on_tick()
                next_tick = now + KEEP_ALIVE_SECONDS
            if now >= deadline:
                break
    except RuntimeError as error:
        if not request_gone(error):
            raise
        # The request's context ended under the stream (the table reloaded as the game ended):
        # so does the stream, quietly; the page's new stream takes over.
        log.info("game %s: stream ended with its request (%s)", game_id, error)


def request_gone(error: RuntimeError) -> bool:
    """asgiref's word for work sent to a request's thread after its executor quit."""
    return "CurrentThreadExecutor already quit" in str(error)


async def _changes(game_id: int) -> AsyncIterator[dict | None]:
    """The game's events from Redis; from its row when there is no Redis, or it is down."""
    if settings.REDIS_URL:
        try:
            async for data in _redis_changes(game_id):
                yield data
        except (OSError, ConnectionError, RedisError) as error:
            log.warning("game %s: events from its row, Redis unreachable (%s)", game_id, error)
        else:
            return
    async for data in _row_changes(game_id):
        yield data


async def _redis_changes(game_id: int) -> AsyncIterator[dict | None]:
    """The game's events from Redis, None each KEEP_ALIVE_SECONDS without one."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        await pubsub.subscribe(channel(game_id))
        while True:
            message = await pubsub.get_message(timeout=KEEP_ALIVE_SECONDS)
            if message is None:
                yield None
            elif message.get("type") == "message":
                yield json.loads(message["data"])
    finally:
        await pubsub.aclose()
        await client.aclose()


async def _row_changes(game_id: int) -> AsyncIterator[dict | None]:
    """Without Redis: the game's row five times a second; an event when it moved (version, chat,
    status)."""
    fields = ("version", "chat_count", "status")
    seen = None
    rows = Game.objects.filter(pk=game_id).values_list(*fields)
    while True:
        now = await look_then_release(rows.first)
        if seen is not None and now != seen:
            version, chat_count, status = now or (None, None, None)
            yield _data(version, chat=chat_count != seen[1], over=status != Game.Status.ACTIVE)
        else:
            yield None
        seen = now
        await asyncio.sleep(DB_LOOK_SECONDS)


MAX_STREAMS_PER_VIEWER = 8  # a person's open tables and programs; far above what one uses


async def event_stream(
    game_id: int, *, viewer: str, on_tick: Callable[[], Awaitable[None]] | None = None
) -> StreamingHttpResponse:
    """The response that streams the game's events (for a viewer the caller let in), counted
    against the viewer's streams (`viewer`: "user:N", or an address for someone signed out).
    GameError 429 past MAX_STREAMS_PER_VIEWER open at once: a script cannot hold hundreds."""
    key = f"streams:{viewer}"
    await cache.aadd(key, 0, timeout=STREAM_SECONDS + 60)  # a crashed process's count lapses
    if (await cache.aincr(key) or 0) > MAX_STREAMS_PER_VIEWER:  # Redis away: not counted
        await sync_to_async(place_give_back)(key)
        raise GameError(
            _("You have too many tables and streams open at once: close some first."),
            status=429,
            retry_after=RETRY_MILLISECONDS // 1000,
        )

    STREAMS.inc()
    response = StreamingHttpResponse(
        CountedStream(game_events(game_id, on_tick=on_tick), key), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


def place_give_back(key: str) -> None:
    """One of the viewer's streams ended (or was never opened): its place counts no more."""
    with contextlib.suppress(ValueError):  # lapsed meanwhile: nothing to give back
        cache.decr(key)


class CountedStream:
    """A stream's chunks, its place among the viewer's streams given back once, when it ends or
    when the server closes the response (Django calls its content's close(), whether the client
    read to the end or went away)."""

    def __init__(self, chunks: AsyncIterator[str], key: str):
        self.chunks, self.key, self.freed = chunks, key, False

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        try:
            return await self.chunks.__anext__()
        except StopAsyncIteration:
            await sync_to_async(self.close)()
            raise

    def close(self) -> None:
        if not self.freed:
            self.freed = True
            STREAMS.dec()
            place_give_back(self.key)
