"""The monitor's check, /healthz, and the operator's figures, /metrics."""

import hmac
import os

from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)

from .. import health

SITE = CollectorRegistry(auto_describe=False)
SITE.register(health.SiteFigures())


@require_GET
@never_cache
def healthz(request):
    """200 when the database and the broker answer and the worker proved alive lately; 503 (with
    what failed) otherwise. Always JSON."""
    database = health.database_status()
    broker = health.broker_status()
    worker = health.worker_status() if database["ok"] else {"ok": False, "last_seen": None}
    ok = database["ok"] and broker["ok"] and worker["ok"]
    body = {
        "status": "ok" if ok else "unavailable",
        "database": database,
        "broker": broker,
        "worker": worker,
        "worker_last_seen": worker["last_seen"],
    }
    return JsonResponse(body, status=200 if ok else 503)


@require_GET
@never_cache
def metrics(request):
    """Prometheus's scrape: this process's counts (or, with PROMETHEUS_MULTIPROC_DIR, those of
    every process of the machine that writes there) and the site's figures. Not public: 404
    unless METRICS_TOKEN is set, then 401 without `Authorization: Bearer <METRICS_TOKEN>`."""
    token = settings.METRICS_TOKEN
    if not token:
        raise Http404
    given = request.headers.get("Authorization", "")
    if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        response = HttpResponse("A bearer token is needed.\n", status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    body = generate_latest(registry) + generate_latest(SITE)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
