"""Markers for tests that need a real server: skipped with a visible reason when none is
configured, and a failure under REQUIRE_SERVICES=1 (what CI sets). Every game a test makes is
seeded from the test's node id, and a failure prints the seeds (tests/seeds.py)."""

import copy
import os
import uuid

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.seeds import forget, seed_for_test, seeds_made

# Hypothesis: `ci` (what .ci/run sets) tries many examples, `dev` (the default) a few, for a quick
# loop; HYPOTHESIS_PROFILE chooses. A test whose example is costly (a whole game) asks for a share
# of the profile's count (tests/examples.py), never for a count of its own.
hypothesis_settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.register_profile(
    "dev", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

HAVE_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
HAVE_REDIS = os.environ.get("REDIS_URL", "").startswith("redis")
REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
IMPLIED = {"worker": ("postgres", "redis"), "concurrency": ("postgres",)}


DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
}


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="only the tests that use the database (.ci/run's pass on the embedded default: "
        "a test that reaches no database answers alike on both, and the other pass runs it)",
    )


def uses_database(item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


def pytest_collection_modifyitems(config, items):
    for item in items:
        for marker, needs in IMPLIED.items():
            if marker in item.keywords:
                for need in needs:
                    item.add_marker(getattr(pytest.mark, need))
    if config.getoption("database_tests_only"):
        left_out = [item for item in items if not uses_database(item)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if uses_database(item)]


def pytest_runtest_setup(item):
    missing = []
    if "postgres" in item.keywords and not HAVE_POSTGRES:
        missing.append("PostgreSQL (set DATABASE_URL=postgres://...)")
    if "redis" in item.keywords and not HAVE_REDIS:
        missing.append("Redis (set REDIS_URL=redis://...)")
    if missing:
        reason = "needs " + " and ".join(missing)
        if REQUIRE_SERVICES:
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}", pytrace=False)
        pytest.skip(reason)


def pytest_report_header(config):
    return (
        f"services: postgres={'yes' if HAVE_POSTGRES else 'no'} "
        f"redis={'yes' if HAVE_REDIS else 'no'} require={REQUIRE_SERVICES}"
    )


@pytest.fixture(autouse=True)
def seeded_games(request, monkeypatch):
    """Every game made during the test (by a factory, a service or a view) takes its seed from
    the test's node id instead of secrets.token_hex."""
    from games.models import Game  # Django is set up once the tests run, not when this loads

    forget(request.node.nodeid)
    field = Game._meta.get_field("seed")
    monkeypatch.setattr(field, "default", seed_for_test)
    monkeypatch.setattr(field, "_get_default", seed_for_test)  # the field caches its default


@pytest.fixture(autouse=True)
def language_of_the_site():
    """Each test starts in the site's language. A request by a player who chose one activates it
    for the thread (accounts.middleware), and in a server the next request's LocaleMiddleware
    activates its own; a test that calls services after another test's request had no such
    reset, and met the other test's Czech (tests/i18n, then a message matched in English)."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    """Each test counts its own logins and sign-ups, and its own moves, chat messages and
    invitations (games/ratelimit.py): allauth and the site keep their rate limits in the cache,
    which (Redis) outlives a test and a run, so each test gets a key prefix of its own. Set in
    the settings, so that every thread (a live server's too) gets new cache objects with it."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"t-{uuid.uuid4().hex}"
    settings.CACHES = caches


class Clock:
    """time.time() as the rate limits see it: moved on by hand."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    """The clock of every rate limit (the site's and allauth's: each reads time.time()), stopped
    at the start of an hour until the test moves it. Dates (timezone.now) go on as they were."""
    import time

    stopped = Clock(float(int(time.time()) // 3600 * 3600))
    monkeypatch.setattr(time, "time", stopped.time)
    return stopped


class Hashes:
    """How many times a password was run through the hasher: a check, or a new hash."""

    def __init__(self):
        self.count = 0


@pytest.fixture
def hashes(monkeypatch):
    """Counts the passwords hashed (the tests' hasher, MD5), from zero at each `hashes.count = 0`.
    Hashing is what a guess costs the site: the count says what a request cost without timing it."""
    from django.contrib.auth.hashers import MD5PasswordHasher

    counted = Hashes()
    encode = MD5PasswordHasher.encode

    def counting_encode(self, password, salt):
        counted.count += 1
        return encode(self, password, salt)

    monkeypatch.setattr(MD5PasswordHasher, "encode", counting_encode)
    return counted


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and (seeds := seeds_made(item.nodeid)):
        report.sections.append(
            ("game seeds (replay: GameState.new(rules, players, seed))", "\n".join(seeds))
        )
    return report


@pytest.fixture
def short_games(monkeypatch):
    """Standard games of two rounds (3 and 4 cards) instead of eleven, for the tests whose subject
    is what happens between many games (a league season's waves, a tournament's rounds through
    the worker), not the length of one: every rule of a round is the same."""
    from games.engine import rules

    monkeypatch.setitem(rules.ROUND_SCHEDULES, "classic", (3, 4))


@pytest.fixture
def duel(db):
    """A started two-person game and its players by seat index."""
    from tests.factories import UserFactory, started_game

    users = [UserFactory(), UserFactory()]
    game = started_game(users)
    return game, {s.index: s.user for s in game.seats.select_related("user")}


@pytest.fixture
def worker(settings):
    """A Celery worker on Redis in a thread of this process (solo pool: one task at a time, in
    order), with an empty queue; bots move a tenth of a second after their turn begins."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app as celery_app
    from tests.workers import clear_broker

    settings.BOT_MOVE_DELAY_SECONDS = 0.1
    settings.YOUR_TURN_MAIL_DELAY_SECONDS = 0
    clear_broker()
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w
