"""The settings of the fault runs' servers (tests/faults): production's, served over plain HTTP
on 127.0.0.1, with mail written to files under VAR_DIR (mail is the one part outside the
machine) so that every message sent can be counted."""

import os

os.environ.setdefault("SECRET_KEY", "fault-runs-only-not-secret-" + "x" * 40)
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from config.settings.production import *  # noqa: F403
from config.settings.production import VAR_DIR

SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "OPTIONS": {"file_path": str(VAR_DIR / "mail")},
    }
}
