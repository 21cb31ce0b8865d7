"""/healthz (games/health.py, games/views/health.py): the database, the broker and the worker's
heartbeat, JSON always, 503 when one fails."""

import pytest
from django.urls import reverse

from config.celery import app as celery_app

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_broker_and_worker(client):
    from games import services

    services.heartbeat_record(name="worker")
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["worker"]["ok"] is True and body["worker_last_seen"]


@pytest.mark.parametrize("age", [None, 121, 8 * 60])
def test_healthz_is_503_when_the_worker_has_not_been_seen_for_a_few_beats(client, age):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Heartbeat

    if age is not None:
        Heartbeat.objects.create(name="worker", seen_at=timezone.now() - timedelta(seconds=age))
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.json()
    assert body["worker"]["ok"] is False and body["database"]["ok"] and body["broker"]["ok"]


def test_healthz_is_503_when_the_broker_does_not_answer(client, monkeypatch):
    # The namespaced key is the one the app reads (Django settings, CELERY_ prefix).
    monkeypatch.setitem(celery_app.conf, "CELERY_BROKER_URL", "redis://127.0.0.1:9/0")
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.json()
    assert body["broker"]["ok"] is False
    assert body["database"]["ok"] is True
