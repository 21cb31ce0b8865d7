"""Celery tasks: thin, take ids, safe to run twice."""

from celery import shared_task

from . import services


@shared_task
def heartbeat(name: str = "worker") -> None:
    services.heartbeat_record(name=name)
