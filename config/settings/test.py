"""Tests: PostgreSQL and Redis when DATABASE_URL / REDIS_URL are set, SQLite otherwise."""

import os

from config.vapid import vapid_keys_new

from .base import *  # noqa: F403
from .base import REDIS_URL

SECRET_KEY = "test-only-not-secret"
DEBUG = False
# The development tools (benchmarks, seeding, tournaments); never in production.
INSTALLED_APPS = [*INSTALLED_APPS, "devtools"]  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if not os.environ.get("DATABASE_URL"):
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
# Without Redis, tasks go to an in-memory broker that no worker reads: tests call them directly.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS = {}
CELERY_BEAT_SCHEDULE = {}
BOT_MOVE_DELAY_SECONDS = 0
BOT_HARD_SECONDS = 0.02
BOT_HARD_TIME_CAP = False
# A key pair per run: the push tests sign their requests to a local fake push service.
_vapid = vapid_keys_new()
VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = _vapid["public"], _vapid["private"]
VAPID_SUBJECT = "mailto:tests@localhost"
PUSH_SERVICE_HOSTS = [*PUSH_SERVICE_HOSTS, "push.example.net"]  # noqa: F405
