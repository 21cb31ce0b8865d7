"""One log line per API request: its method, path, answer and token's id (never the token)."""

from __future__ import annotations

import logging
import time

log = logging.getLogger("games.api")


class ApiRequestLog:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        started = time.perf_counter()
        response = self.get_response(request)
        token = getattr(request, "api_token", None)
        log.info(
            "api %s %s %s token=%s %.0fms",
            request.method,
            request.path,
            response.status_code,
            token.pk if token is not None else "-",
            (time.perf_counter() - started) * 1000,
        )
        return response
