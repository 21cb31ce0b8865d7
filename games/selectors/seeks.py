"""Quick play's reads: a player's open seeks, each with its waiting game's seats taken."""

from django.db.models import Count

from accounts.models import User

from ..models import Seek


def seeks_open(user: User) -> list[Seek]:
    """The player's open seeks, newest first, in one query (never a game's state)."""
    return list(
        Seek.objects.filter(player=user, status=Seek.Status.OPEN)
        .select_related("game")
        .only(*(f.attname for f in Seek._meta.concrete_fields), "game__seat_count")
        .annotate(taken=Count("game__seats"))
        .order_by("-created_at", "-pk")
    )
