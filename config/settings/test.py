"""Tests: PostgreSQL and Redis when DATABASE_URL / REDIS_URL are set, SQLite otherwise."""

import os
import sys
from urllib.parse import urlsplit, urlunsplit

from config.vapid import vapid_keys_new

from .base import *  # noqa: F403
from .base import REDIS_URL, redis_cache

# pytest-xdist runs the suite in several processes: each takes a Redis database of its own (the
# one named, then the ones below it), so that no two share a broker queue or a cache. It is put
# back into the environment, where the processes a test starts (a Celery worker) find it; they
# inherit PYTEST_XDIST_WORKER too but do not run pytest, and keep the URL they are given.
# (pytest-django gives each xdist process its own test database, test_<name>_gw<N>.)
_xdist_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL and _xdist_worker.startswith("gw") and "pytest" in sys.modules:
    _url = urlsplit(REDIS_URL)
    _db = int(_url.path.strip("/") or 0) - int(_xdist_worker[2:])
    REDIS_URL = urlunsplit(_url._replace(path=f"/{_db}"))
    os.environ["REDIS_URL"] = REDIS_URL
    CACHES = {"default": redis_cache(REDIS_URL)}

SECRET_KEY = "test-only-not-secret"
DEBUG = False
# The development tools (benchmarks, seeding, tournaments); never in production.
INSTALLED_APPS = [*INSTALLED_APPS, "devtools", "django_migration_linter"]  # noqa: F405
PASSWORD_HASHERS = ["accounts.hashers.MD5PasswordHasher"]
# Browsers and threads log in at once; tests/accounts/test_hashing.py sets 1.
PASSWORD_HASHING_SLOTS = 8
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if not os.environ.get("DATABASE_URL"):
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, but a test that commits is cleaned up by DELETE, not TRUNCATE (tests/postgresql).
    DATABASES["default"]["ENGINE"] = "tests.postgresql"
# Without Redis, tasks go to an in-memory broker that no worker reads: tests call them directly.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_BROKER_TRANSPORT = None  # the URL's: not the embedded default's filesystem transport
# An idle worker asks Redis for its next task 0.1 s at a time (kombu's default, 1 s): a worker
# stops only once that wait is over, and some fifty tests start and stop one.
CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.1}
CELERY_BEAT_SCHEDULE = {}
BOT_MOVE_DELAY_SECONDS = 0
BOT_HARD_SECONDS = 0.02
BOT_HARD_TIME_CAP = False
# A key pair per run: the push tests sign their requests to a local fake push service.
_vapid = vapid_keys_new()
VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = _vapid["public"], _vapid["private"]
VAPID_SUBJECT = "mailto:tests@localhost"
PUSH_SERVICE_HOSTS = [*PUSH_SERVICE_HOSTS, "push.example.net"]  # noqa: F405
