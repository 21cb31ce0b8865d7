"""The background processes' proof of life."""

from django.db import models


class Heartbeat(models.Model):
    """The last time a named background process proved it was alive (the worker, via beat)."""

    name = models.CharField(max_length=40, unique=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} @ {self.seen_at:%Y-%m-%d %H:%M:%S}"
