"""The page for an error nobody meant: a styled 503 'back in a moment' while the database is
unreachable (a restart, a failover), a styled 500 otherwise. Neither touches the database."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template.loader import render_to_string

RETRY_AFTER_SECONDS = 30


def server_error(request):
    if isinstance(sys.exception(), OperationalError | InterfaceError):
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return HttpResponse(render_to_string("500.html"), status=500)
