"""Health checks for /healthz: whether the database and the broker answer, and when the worker
last proved alive."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.utils import timezone
from kombu import Connection

from config.celery import app as celery_app

from .models import Heartbeat


def database_status() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure means "down"; the reason is reported
        return {"ok": False, "vendor": connection.vendor, "error": type(error).__name__}
    return {"ok": True, "vendor": connection.vendor}


def broker_status() -> dict:
    url = celery_app.conf.broker_url
    transport = url.split("://", 1)[0]
    try:
        with Connection(url, transport_options=celery_app.conf.broker_transport_options) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
            if transport.startswith("redis"):
                conn.default_channel.client.ping()
    except Exception as error:
        return {"ok": False, "transport": transport, "error": type(error).__name__}
    return {"ok": True, "transport": transport}


def worker_last_seen(name: str = "worker"):
    return Heartbeat.objects.filter(name=name).values_list("seen_at", flat=True).first()


def worker_status(now=None) -> dict:
    """Whether the worker proved alive lately: beat queues a heartbeat task every 30 s, so a
    heartbeat older than WORKER_STALE_SECONDS means no worker is taking tasks (or no beat)."""
    last_seen = worker_last_seen()
    now = now or timezone.now()
    age = None if last_seen is None else (now - last_seen).total_seconds()
    ok = age is not None and age <= settings.WORKER_STALE_SECONDS
    return {"ok": ok, "last_seen": last_seen.isoformat() if last_seen else None, "age": age}
