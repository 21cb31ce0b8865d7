"""The embedded default: SQLite, no Redis, mail in var/mail. What `make run` uses."""

from config.vapid import vapid_keys_local

from .base import *  # noqa: F403
from .base import BROKER_DIR, VAR_DIR, env_bool

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = SECRET_KEY or "local-development-only-not-secret"  # noqa: F405
# The development tools (benchmarks, seeding, tournaments); never in production.
INSTALLED_APPS = [*INSTALLED_APPS, "devtools"]  # noqa: F405
for folder in (VAR_DIR, STATIC_ROOT, BROKER_DIR / "queue", BROKER_DIR / "control"):  # noqa: F405
    folder.mkdir(parents=True, exist_ok=True)
if not (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY):  # noqa: F405
    # Web Push works out of the box: a key pair made once into var/ (browsers accept pushes
    # from http://127.0.0.1 and localhost, which count as secure origins).
    _vapid = vapid_keys_local(VAR_DIR / "vapid.json")
    VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = _vapid["public"], _vapid["private"]

# The console of `make run`: a refused request (4xx) is already one access line; Django's own
# "Bad Request: ..." warnings would repeat it. Errors (5xx) are still logged in full.
LOGGING["loggers"]["django.request"] = {"level": "ERROR"}  # noqa: F405
