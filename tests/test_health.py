"""/healthz (games/health.py, games/views/health.py): the database, the broker and the worker's
heartbeat, JSON always, 503 when one fails. /metrics: the operator's figures, behind a token."""

import pytest
from django.urls import reverse

from config.celery import app as celery_app
from tests.metrics import TOKEN, scrape

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


def test_metrics_are_not_public(client, settings):
    """No token set: there is no such page. A token set: refused without it, or with another."""
    settings.METRICS_TOKEN = ""
    assert client.get(reverse("metrics")).status_code == 404
    settings.METRICS_TOKEN = TOKEN
    assert client.get(reverse("metrics")).status_code == 401
    wrong = client.get(reverse("metrics"), HTTP_AUTHORIZATION="Bearer metrics-token-for-tests-x")
    assert wrong.status_code == 401 and wrong["WWW-Authenticate"].startswith("Bearer")
    assert client.get(reverse("metrics"), HTTP_AUTHORIZATION=TOKEN).status_code == 401
    assert scrape(client)


def test_metrics_count_requests_by_view_and_status_and_the_databases_queries(client, settings):
    settings.METRICS_TOKEN = TOKEN
    before = scrape(client)
    client.get(reverse("how_to_play"))
    client.get("/no/such/page/")
    after = scrape(client)
    page = 'tt_http_requests_total{method="GET",status="200",view="how_to_play"}'
    missing = 'tt_http_requests_total{method="GET",status="404",view="unmatched"}'
    assert after[page] == before.get(page, 0) + 1
    assert after[missing] == before.get(missing, 0) + 1
    assert after['tt_http_request_seconds_count{view="how_to_play"}'] >= 1
    queries = 'tt_db_queries_total{alias="default"}'
    assert after[queries] > before.get(queries, 0)  # the scrape's own reads, at least


def test_metrics_read_the_outbox_the_bot_turns_and_the_sweeps_last_run(client, settings, duel):
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks
    from games.models import Notification
    from tests.factories import UserFactory, started_game

    settings.METRICS_TOKEN = TOKEN
    tasks.deadlines_sweep()  # first: it would queue again a mail long overdue
    before = scrape(client)  # the duel's first your-turn mail, just queued
    assert before["tt_outbox_oldest_pending_seconds"] < 60
    game, by_seat = duel
    user = by_seat[0]
    old = timezone.now() - timedelta(minutes=10)
    Notification.objects.create(user=user, kind="your_turn", game=game, turn=1, enqueued_at=old)
    later = timezone.now() + timedelta(minutes=10)  # a mail held back: not due yet
    Notification.objects.create(user=user, kind="your_turn", game=game, turn=2, enqueued_at=later)
    with_a_bot = started_game([UserFactory()], bots="medium", seat_count=2)
    if with_a_bot.seats.get(index=with_a_bot.to_move_seat).user.is_bot is False:
        seat = with_a_bot.seats.get(index=with_a_bot.to_move_seat)
        seat.autopilot = True  # the person to move timed out: the site plays their seat
        seat.save()
    figures = scrape(client)
    assert figures["tt_outbox_pending"] == before["tt_outbox_pending"] + 1  # not the one held
    assert 590 < figures["tt_outbox_oldest_pending_seconds"] < 700
    assert figures["tt_bot_turns_waiting"] == before["tt_bot_turns_waiting"] + 1
    assert figures['tt_heartbeat_age_seconds{name="deadlines_sweep"}'] < 60
    assert "tt_event_streams_open" in figures
    if settings.REDIS_URL:
        assert figures['tt_queue_depth{queue="bots"}'] >= 0


def test_the_dashboard_and_the_alerts_name_only_figures_metrics_serves(client, settings, duel):
    """docs/monitoring/: every tt_ figure the Grafana dashboard and the alert rules read is one
    that /metrics serves (after a request, a query and a task)."""
    import json
    import re
    from pathlib import Path

    import yaml

    from games import tasks

    settings.METRICS_TOKEN = TOKEN
    tasks.heartbeat.apply(args=("scraped",))  # through Celery's tracer: its signals count it
    client.get(reverse("how_to_play"))
    served = {re.sub(r"\{.*", "", name) for name in scrape(client)}
    docs = Path(__file__).resolve().parent.parent / "docs" / "monitoring"
    board = json.loads((docs / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for panel in board["panels"] for t in panel["targets"]]
    read = set(re.findall(r"\btt_[a-z_]+", " ".join(exprs) + (docs / "alerts.yml").read_text()))
    assert len(read) >= 10
    if not settings.REDIS_URL:  # the embedded default's folder broker tells no queue lengths
        read.discard("tt_queue_depth")
    assert read <= served, read - served
    rules = yaml.safe_load((docs / "alerts.yml").read_text())["groups"][0]["rules"]
    assert {rule["alert"] for rule in rules} == {"OutboxBackingUp", "NoBeat", "ServerErrors"}
