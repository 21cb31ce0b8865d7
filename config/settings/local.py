"""The embedded default: SQLite, no Redis, mail in var/mail. What `make run` uses."""

from .base import *  # noqa: F403
from .base import BROKER_DIR, VAR_DIR, env_bool

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = SECRET_KEY or "local-development-only-not-secret"  # noqa: F405
for folder in (VAR_DIR, STATIC_ROOT, BROKER_DIR / "queue", BROKER_DIR / "control"):  # noqa: F405
    folder.mkdir(parents=True, exist_ok=True)

# The console of `make run`: a refused request (4xx) is already one access line; Django's own
# "Bad Request: ..." warnings would repeat it. Errors (5xx) are still logged in full.
LOGGING["loggers"]["django.request"] = {"level": "ERROR"}  # noqa: F405
