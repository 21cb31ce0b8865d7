"""The cache on Redis, where Redis that does not answer (a restart, a failover) fails no request.
The cache holds nothing that is not also elsewhere or that cannot be lost: sessions are written
through to the database (a session missing from the cache is read from there), and rate limits
count here (while Redis is away they count nothing, for those seconds). Django's RedisCache
raises instead, so every page of a logged-in player answered 500 until Redis was back
(tests/faults, tests/test_cache.py)."""

import functools
import logging

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError, TimeoutError

logger = logging.getLogger(__name__)
REDIS_DOWN = (ConnectionError, TimeoutError)


def forgiving(method, fallback):
    """`method`, answering what `fallback` makes of its arguments while Redis is down."""

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except REDIS_DOWN as error:
            logger.warning("cache %s skipped, Redis does not answer: %s", method.__name__, error)
            return fallback(*args, **kwargs)

    return call


def nothing(*args, **kwargs):
    return None


class OneClientPerPool(RedisCacheClient):
    """Django builds a new redis.Redis for every cache call (with its table of ~80 response
    callbacks: a tenth of a millisecond, four times a move); one per connection pool serves
    them all (a client is safe to share between threads: each call takes a pool connection)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = self._client(connection_pool=pool)
        return client


class ForgivingRedisCache(RedisCache):
    """RedisCache whose reads miss and whose writes are dropped while Redis is down."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = OneClientPerPool

    get = forgiving(RedisCache.get, lambda key, default=None, version=None: default)
    get_many = forgiving(RedisCache.get_many, lambda *args, **kwargs: {})
    has_key = forgiving(RedisCache.has_key, lambda *args, **kwargs: False)
    add = forgiving(RedisCache.add, lambda *args, **kwargs: False)
    incr = forgiving(RedisCache.incr, lambda key, delta=1, version=None: delta)
    set = forgiving(RedisCache.set, nothing)
    set_many = forgiving(RedisCache.set_many, lambda *args, **kwargs: [])
    touch = forgiving(RedisCache.touch, lambda *args, **kwargs: False)
    delete = forgiving(RedisCache.delete, lambda *args, **kwargs: False)
    delete_many = forgiving(RedisCache.delete_many, nothing)
