"""The cache on Redis (django-redis, IGNORE_EXCEPTIONS: config/settings/base.py redis_cache): while
Redis does not answer, the cache misses and drops writes, and a logged-in player's pages and moves
still work (sessions are read from the database, rate limits count nothing)."""

import pytest
from django.urls import reverse

from config.settings.base import redis_cache
from tests.factories import UserFactory, started_game
from tests.private_servers import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down(settings):
    """The project's Redis cache, on a port where nothing listens."""
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{free_port()}/0")}
    from django.core.cache import cache

    return cache


def test_reads_miss_and_writes_are_dropped_while_redis_is_down(redis_down):
    redis_down.set("k", 1)
    assert redis_down.get("k", "missing") == "missing"
    assert redis_down.get_many(["k"]) == {}
    assert not redis_down.add("k", 1)
    assert not redis_down.has_key("k")
    assert not redis_down.delete("k")
    assert not redis_down.incr("k")


def test_a_player_plays_while_redis_is_down(redis_down, client):
    ann, ben = UserFactory(), UserFactory()
    game = started_game([ann, ben])
    player = ann if game.to_move_seat == 0 else ben
    client.force_login(player)
    assert client.get(reverse("home")).status_code == 200
    assert client.get(reverse("game", args=[game.pk])).status_code == 200
    response = client.post(
        reverse("move_draw", args=[game.pk]), {"version": game.version, "source": "stock"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 1


def test_one_redis_client_serves_every_call(settings):
    """A client per call would build its table of response callbacks four times a move: one,
    kept, serves them all (django-redis's public get_redis_connection)."""
    from django.core.cache import cache
    from django_redis import get_redis_connection

    if "django_redis" not in settings.CACHES["default"]["BACKEND"]:
        pytest.skip("the tests' cache is not Redis here")
    client = get_redis_connection("default")
    cache.set("one-client", 1)
    assert cache.get("one-client") == 1
    assert get_redis_connection("default") is client


def test_a_player_is_not_refused_for_rate_limits_while_redis_is_down(redis_down):
    """The rate limits count nothing while Redis is away (django-redis answers None to incr)."""
    from games.ratelimit import rate_limit_consume

    player = UserFactory()
    for _ in range(200):
        rate_limit_consume(user=player, action="chat")
