"""The cap on passwords hashed at once (accounts/hashing.py): past it a request that would hash one
is refused with 503 and Retry-After before any hashing, the slots are shared by every process
through Redis, and a slot whose holder died lapses."""

import time

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts import hashing
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"


def test_with_every_slot_taken_a_login_is_a_503_that_hashes_nothing(settings, hashes):
    """Guesses from a few addresses, each within its limits, kept every web process hashing and
    /healthz waited seconds. The site hashes at most PASSWORD_HASHING_SLOTS at once."""
    settings.PASSWORD_HASHING_SLOTS = 1
    user = UserFactory()
    login = {"login": user.username, "password": PASSWORD}
    hashes.count = 0
    with hashing.hashing_slot():  # another request, maybe in another process, is hashing
        busy = Client().post(reverse("account_login"), login)
        assert busy.status_code == 503 and busy["Retry-After"] == "2"
        assert "try again in a few seconds" in busy.content.decode()
        assert hashes.count == 0
    assert Client().post(reverse("account_login"), login).status_code == 302
    assert hashes.count == 1


def test_every_form_that_hashes_waits_for_a_slot(client, settings, hashes):
    settings.PASSWORD_HASHING_SLOTS = 1
    client.force_login(UserFactory())
    hashes.count = 0
    with hashing.hashing_slot():
        assert client.post(reverse("account_delete"), {"password": "guess"}).status_code == 503
        new = "a long enough pass 42"
        signup = {"username": "ada", "email": "a@example.com", "password1": new, "password2": new}
        assert Client().post(reverse("account_signup"), signup).status_code == 503
    assert hashes.count == 0


class FakeTime:
    def __init__(self):
        self.now = time.time()

    def time(self):
        return self.now


@pytest.mark.redis
def test_the_slots_are_shared_through_redis_and_a_dead_holders_slot_lapses(settings, monkeypatch):
    """Two processes (two clients of their own) share the slots; a holder that never gives its
    slot back (a worker killed mid-hash) loses it SLOT_SECONDS later."""
    clock = FakeTime()
    monkeypatch.setattr(hashing, "time", clock)
    key = cache.make_key("password-hashing")
    first, second = hashing.RedisSlots(settings.REDIS_URL), hashing.RedisSlots(settings.REDIS_URL)
    held = [first.acquire(key, 2), second.acquire(key, 2)]
    assert all(held) and first.acquire(key, 2) is None and second.acquire(key, 2) is None
    second.release(key, held[1])
    again = first.acquire(key, 2)
    assert again is not None
    clock.now += hashing.SLOT_SECONDS + 1  # neither gave its slot back: both lapse
    assert second.acquire(key, 2) and second.acquire(key, 2) and not first.acquire(key, 2)
    first.release(key, again)  # a lapsed slot given back frees nothing more


def test_without_redis_each_process_counts_its_own_slots(settings):
    """The embedded default (no Redis), and any process while Redis does not answer."""
    settings.PASSWORD_HASHING_SLOTS = 1
    for url in ("", "redis://127.0.0.1:1/0"):  # none; one that refuses connections
        settings.REDIS_URL = url
        with hashing.hashing_slot():
            busy = pytest.raises(hashing.HashingBusy)
            with busy, hashing.hashing_slot():
                pass
        with hashing.hashing_slot():  # given back
            pass
