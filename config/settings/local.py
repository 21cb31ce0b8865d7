"""The embedded default: SQLite, no Redis, mail in var/mail. What `make run` uses: a site run on
one machine, so DEBUG is off (the site's own error pages; whitenoise serves the static files
collected into var/); `DEBUG=1 make run` for development."""

import os

from django.core.management.utils import get_random_secret_key

from config.vapid import vapid_keys_local

from .base import *  # noqa: F403
from .base import BROKER_DIR, VAR_DIR, env_bool

DEBUG = env_bool("DEBUG", False)
# The development tools (benchmarks, seeding, tournaments); never in production.
INSTALLED_APPS = [*INSTALLED_APPS, "devtools", "django_migration_linter"]  # noqa: F405
for folder in (VAR_DIR, STATIC_ROOT, BROKER_DIR / "queue", BROKER_DIR / "control"):  # noqa: F405
    folder.mkdir(parents=True, exist_ok=True)


def secret_key_local(path) -> str:
    """The key kept in `path`, made on first use (only the owner may read it): sessions and
    mailed links stay valid from one `make run` to the next, and no two machines share a key."""
    if not path.exists():
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
            file.write(get_random_secret_key())
    return path.read_text().strip()


SECRET_KEY = SECRET_KEY or secret_key_local(VAR_DIR / "secret_key")  # noqa: F405
if not (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY):  # noqa: F405
    # Web Push works out of the box: a key pair made once into var/ (browsers accept pushes
    # from http://127.0.0.1 and localhost, which count as secure origins).
    _vapid = vapid_keys_local(VAR_DIR / "vapid.json")
    VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = _vapid["public"], _vapid["private"]

# The console of `make run`: a refused request (4xx) is already one access line; Django's own
# "Bad Request: ..." warnings would repeat it. Errors (5xx) are still logged in full.
LOGGING["loggers"]["django.request"] = {"level": "ERROR"}  # noqa: F405
