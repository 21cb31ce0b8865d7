from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import selectors


def home(request):
    return render(request, "games/home.html")


@require_GET
@never_cache
def healthz(request):
    database = selectors.database_status()
    broker = selectors.broker_status()
    ok = database["ok"] and broker["ok"]
    last_seen = selectors.worker_last_seen() if database["ok"] else None
    body = {
        "status": "ok" if ok else "unavailable",
        "database": database,
        "broker": broker,
        "worker_last_seen": last_seen.isoformat() if last_seen else None,
    }
    return JsonResponse(body, status=200 if ok else 503)
