"""Personal access tokens for the API (docs/api.md). A token is "tt_" and 43 random characters,
shown once when made; the site keeps its SHA-256 and its first characters, so a stolen database
holds no usable token. A token acts for one account (a person's, or their own bot's) with the
scopes chosen, until it expires or is revoked."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import ApiToken, User

TOKEN_PREFIX = "tt_"
MAX_TOKENS_PER_ACCOUNT = 20
EXPIRY_DAYS = (30, 90, 365)  # or never (None)
LAST_USED_STEP = timedelta(minutes=1)  # last_used_at is written at most this often


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@transaction.atomic
def token_create(
    *, user: User, name: str, scopes: set[str], expires_in_days: int | None
) -> tuple[ApiToken, str]:
    """A new token for `user` (the player themselves, or a bot they own): the row and the token,
    which is never shown again. ValidationError for a bad name, scope or expiry."""
    User.objects.select_for_update().get(pk=user.pk)  # counts tokens one request at a time
    name = (name or "").strip()
    if not name:
        raise ValidationError(_("Give the token a name, to tell it from others."))
    if not scopes or not scopes <= set(ApiToken.Scope.values):
        raise ValidationError(_("Choose what the token may do."))
    if expires_in_days is not None and expires_in_days not in EXPIRY_DAYS:
        raise ValidationError(_("Choose when the token expires."))
    if ApiToken.objects.filter(user=user, revoked_at=None).count() >= MAX_TOKENS_PER_ACCOUNT:
        raise ValidationError(_("This account has as many tokens as it may: revoke one first."))
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = ApiToken(
        user=user,
        name=name,
        prefix=token[:8],
        digest=token_digest(token),
        scopes=" ".join(s for s in ApiToken.Scope.values if s in scopes),
        expires_at=timezone.now() + timedelta(days=expires_in_days) if expires_in_days else None,
    )
    row.full_clean(exclude=["user"])
    row.save()
    return row, token


def token_revoke(*, owner: User, token_id: int) -> bool:
    """Revoke a token of `owner` or of one of their bots; False when there is none such."""
    mine = ApiToken.objects.filter(pk=token_id, revoked_at=None, user__in=accounts_of(owner))
    return mine.update(revoked_at=timezone.now()) > 0


def accounts_of(owner: User):
    """The accounts whose tokens `owner` manages: their own and their bots'."""
    return User.objects.filter(pk=owner.pk) | User.objects.filter(owner=owner)


def token_authenticate(token: str) -> ApiToken | None:
    """The live token that `token` is, with its account, or None. Marks it used (at most once a
    minute, a write that need not wait)."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
        return None
    row = (
        ApiToken.objects.select_related("user")
        .filter(digest=token_digest(token), revoked_at=None, user__is_active=True)
        .first()
    )
    now = timezone.now()
    if row is None or (row.expires_at is not None and row.expires_at <= now):
        return None
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_STEP:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
    return row
