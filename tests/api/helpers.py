"""Shared by the API tests: a token for an account, and requests made with it."""

from __future__ import annotations

import json

from accounts.api_tokens import token_create


def token_for(user, *scopes: str, days: int | None = None) -> str:
    _row, token = token_create(
        user=user, name="test", scopes=set(scopes or ("read", "play", "chat")), expires_in_days=days
    )
    return token


class Api:
    """The Django test client speaking JSON to /api/v1/ with one token (or none)."""

    def __init__(self, client, token: str | None):
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **params):
        return self.client.get(f"/api/v1{path}", params, headers=self.headers)

    def post(self, path: str, body: dict | None = None):
        return self.client.post(
            f"/api/v1{path}", json.dumps(body or {}), content_type="application/json",
            headers=self.headers,
        )  # fmt: skip
