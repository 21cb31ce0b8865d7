"""The API's account: who the token acts for."""

from __future__ import annotations

from ninja import Router

from ..selectors.facts import player_facts
from .auth import AUTH, READ
from .common import REFUSALS
from .schemas import Me

router = Router(auth=AUTH)


@router.get("/me", response={200: Me, **REFUSALS}, tags=["account"], auth=READ)
def me(request):
    """The account the token acts for."""
    user = request.user
    return {
        **player_facts(user),
        "language": user.language,
        "scopes": sorted(request.api_token.scope_set),
        "bots": list(user.own_bots.order_by("pk").values_list("username", flat=True)),
    }
