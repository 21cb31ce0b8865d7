"""The Celery app, configured from Django settings (CELERY_* names)."""

import os

from celery import Celery

# Servers and workers run production settings unless told otherwise: they refuse to start without
# a real SECRET_KEY, never with DEBUG. (manage.py, and so `make run`, defaults to local settings.)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("three_thirteen")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
