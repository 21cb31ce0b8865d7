"""Health checks for /healthz: whether the database and the broker answer, and when the worker
last proved alive; and the figures /metrics reads when Prometheus asks (SiteFigures)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Count, F, Min, Q
from django.utils import timezone
from kombu import Connection
from prometheus_client.core import GaugeMetricFamily

from config.celery import app as celery_app

from .models import Game, Heartbeat, Move, Notification, Seat


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


QUEUES = ("celery", "bots", "reviews")  # config/settings/base.py CELERY_TASK_QUEUES


class SiteFigures:
    """What the site holds, read when Prometheus asks (a few indexed queries and a Redis call):
    the outbox's backlog and its oldest mail due and unsent, the bot turns waiting, the moves of
    the last minute, each heartbeat's age (the worker's; the deadline sweep's, which only beat
    queues), and the depth of each task queue."""

    def collect(self):
        now = timezone.now()
        due = Notification.objects.filter(status=Notification.Status.PENDING, enqueued_at__lte=now)
        outbox = due.aggregate(count=Count("id"), oldest=Min("enqueued_at"))
        yield GaugeMetricFamily(
            "tt_outbox_pending", "Mails and pushes due and not sent yet.", value=outbox["count"]
        )
        oldest = outbox["oldest"]
        yield GaugeMetricFamily(
            "tt_outbox_oldest_pending_seconds",
            "Age of the oldest mail or push due and not sent (0: none).",
            value=(now - oldest).total_seconds() if oldest else 0,
        )
        site_bot = Q(user__is_bot=True, user__owner__isnull=True)
        played_by_the_site = site_bot | Q(autopilot=True) | Q(resigned=True)
        waiting = Seat.objects.filter(
            played_by_the_site, game__status=Game.Status.ACTIVE, index=F("game__to_move_seat")
        )
        what = "Games whose seat to move the site plays."
        yield GaugeMetricFamily("tt_bot_turns_waiting", what, value=waiting.count())
        moves = Move.objects.filter(created_at__gte=now - timedelta(minutes=1)).count()
        yield GaugeMetricFamily("tt_moves_last_minute", "Moves of the last minute.", value=moves)
        beats = GaugeMetricFamily(
            "tt_heartbeat_age_seconds",
            "Seconds since each background process last proved alive (deadlines_sweep: beat).",
            labels=["name"],
        )
        for name, seen_at in Heartbeat.objects.values_list("name", "seen_at"):
            beats.add_metric([name], (now - seen_at).total_seconds())
        yield beats
        depth = GaugeMetricFamily("tt_queue_depth", "Tasks in each queue.", labels=["queue"])
        for queue, length in queue_depths().items():
            depth.add_metric([queue], length)
        yield depth


def queue_depths() -> dict[str, int]:
    """Each task queue's length, on Redis (none on the embedded default's folder broker)."""
    url = celery_app.conf.broker_url
    if not url.startswith("redis"):
        return {}
    try:
        with Connection(url) as conn:
            client = conn.default_channel.client
            return {queue: client.llen(queue) for queue in QUEUES}
    except Exception:  # Redis away: /healthz says so; the figures leave the queues out
        return {}
