"""Celery tasks: thin, take ids, safe to run twice."""

from celery import shared_task

from . import services


@shared_task
def heartbeat(name: str = "worker") -> None:
    services.heartbeat_record(name=name)


@shared_task
def bot_move(game_id: int, version: int) -> bool:
    """Play the bot's turn if the game is still where it was when the task was queued."""
    return services.bot_play_turn(game_id=game_id, version=version)
