"""The installable web app: its manifest, and the service worker served from the site's root so
that its scope is the whole site (a worker's scope is at most the folder of its script). The
worker caches static files only (templates/webapp/sw.js); the script that registers it is
static/js/webapp.js."""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# Bumped when the worker's caching changes: an old cache is dropped when the new worker starts.
STATIC_CACHE = "static-v1"


@require_safe
@cache_control(max_age=3600, public=True)
def manifest(request):
    icons = [
        {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "name": _("Three Thirteen by post"),
        "short_name": "3·13",
        "description": _("Three Thirteen by post — rummy over days, one turn at a time."),
        "lang": request.LANGUAGE_CODE,
        "id": reverse("home"),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbfaf7",
        "theme_color": "#1f5f46",
        "icons": icons,
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_safe
@cache_control(no_cache=True)  # a browser checks for a new worker on each visit
def service_worker(request):
    context = {
        "cache_name": STATIC_CACHE,
        "static_url": settings.STATIC_URL,
        "icon": static("icons/icon-192.png"),
    }
    return render(request, "webapp/sw.js", context, content_type="text/javascript")
