"""The settings of the fault runs' servers (tests/faults): production's over plain HTTP on
127.0.0.1 with mail written to files (config/settings/plainhttp.py; mail is the one part outside
the machine, and the runs count every message sent), static files served without a manifest
(the runs collect none)."""

import os

os.environ.setdefault("SECRET_KEY", "fault-runs-only-not-secret-" + "x" * 40)

from config.settings.plainhttp import *  # noqa: F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
