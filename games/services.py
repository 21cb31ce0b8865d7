"""The only writers of game data."""

from django.utils import timezone

from .models import Heartbeat


def heartbeat_record(*, name: str) -> Heartbeat:
    heartbeat, _ = Heartbeat.objects.update_or_create(
        name=name, defaults={"seen_at": timezone.now()}
    )
    return heartbeat
