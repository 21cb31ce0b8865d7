"""The monitor's check: /healthz."""

from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .. import health


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
