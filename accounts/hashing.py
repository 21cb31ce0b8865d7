"""A cap on how many passwords the whole site hashes at once. A password hashed costs about half a
second of a core (PBKDF2, on purpose), so without a cap guesses from a few addresses, each within
its rate limits, can keep every web process hashing and none free for pages. Every hash (a
login's check, the dummy for an account no one has, a new password) first takes one of
settings.PASSWORD_HASHING_SLOTS, or is refused at once with HashingBusy, which the site answers
with 503 and Retry-After (accounts/middleware.py); nothing waits, so no web process sits idle
waiting for a slot either.

The slots are shared by every process through Redis: a sorted set of their holders, each with the
time its slot lapses, so that a process killed while hashing frees its slot SLOT_SECONDS later.
With no Redis (the embedded default, one process), or while Redis does not answer, each process
counts its own."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import Counter
from contextlib import contextmanager, suppress

import redis
from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)
REDIS_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
SLOT_SECONDS = 10  # far longer than a hash takes, even on a busy machine

# KEYS[1] the holders; ARGV: now, when this slot lapses, the number of slots, the holder's token.
ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIREAT', KEYS[1], math.ceil(tonumber(ARGV[2])))
return 1
"""


class HashingBusy(Exception):
    """Every slot is taken: the site is hashing as many passwords as it allows at once."""


class RedisSlots:
    def __init__(self, url: str):
        self.client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        self.take = self.client.register_script(ACQUIRE)

    def acquire(self, key: str, slots: int) -> str | None:
        token, now = uuid.uuid4().hex, time.time()
        return (
            token if self.take(keys=[key], args=[now, now + SLOT_SECONDS, slots, token]) else None
        )

    def release(self, key: str, token: str) -> None:
        self.client.zrem(key, token)


class LocalSlots:
    def __init__(self):
        self.lock = threading.Lock()
        self.held: Counter = Counter()

    def acquire(self, key: str, slots: int) -> str | None:
        with self.lock:
            if self.held[key] >= slots:
                return None
            self.held[key] += 1
            return "local"

    def release(self, key: str, token: str) -> None:
        with self.lock:
            self.held[key] -= 1


local_slots = LocalSlots()
shared_slots: dict[str, RedisSlots] = {}


def _acquire(key: str, slots: int) -> tuple[RedisSlots | LocalSlots, str | None]:
    if url := settings.REDIS_URL:
        shared = shared_slots.get(url) or shared_slots.setdefault(url, RedisSlots(url))
        try:
            return shared, shared.acquire(key, slots)
        except REDIS_DOWN as error:
            logger.warning(
                "password hashing counted in this process, Redis does not answer: %s", error
            )
    return local_slots, local_slots.acquire(key, slots)


@contextmanager
def hashing_slot():
    """Holds one of the site's slots for hashing a password; HashingBusy when none is free."""
    key = cache.make_key("password-hashing")
    holder, token = _acquire(key, settings.PASSWORD_HASHING_SLOTS)
    if token is None:
        raise HashingBusy
    try:
        yield
    finally:
        with suppress(*REDIS_DOWN):  # Redis gone since: the slot lapses by itself
            holder.release(key, token)
