"""Reads."""

from django.db import connection
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
