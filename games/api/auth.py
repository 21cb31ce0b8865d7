"""Who an API request acts for: the account of its personal access token (accounts.api_tokens);
without one, a 401. The API never reads the session cookie: a page open in the same browser lends
it nothing, and so it needs no CSRF token."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _
from ninja.errors import HttpError
from ninja.security import HttpBearer

from accounts.api_tokens import token_authenticate
from accounts.models import ApiToken

from ..ratelimit import rate_limit_consume


class TokenAuth(HttpBearer):
    """`Authorization: Bearer tt_…`, its token holding the route's `scope` (each route declares
    its own: READ, PLAY, CHAT). An unknown, expired or revoked token is a 401; one without the
    scope a 403."""

    openapi_description = "A personal access token, made in Settings → API tokens."

    def __init__(self, scope: str = ""):
        super().__init__()
        self.scope = scope

    def authenticate(self, request, token: str) -> ApiToken | None:
        row = token_authenticate(token)
        if row is None:
            return None
        request.user = row.user
        request.api_token = row
        translation.activate(row.user.language)  # its refusals in the account's language
        # Every request with a token counts against its account's API limit (a 429 past it).
        rate_limit_consume(user=row.user, action="api")
        if self.scope:
            require_scope(request, self.scope)
        return row


AUTH = TokenAuth()  # the router's: a route with no scope of its own needs a token only
READ, PLAY, CHAT = TokenAuth("read"), TokenAuth("play"), TokenAuth("chat")


def require_scope(request, scope: str) -> None:
    """403 when the request's token lacks `scope`."""
    token = request.api_token
    if scope not in token.scope_set:
        raise HttpError(
            403, _("This token may not do that: it lacks the “%(s)s” scope.") % {"s": scope}
        )
