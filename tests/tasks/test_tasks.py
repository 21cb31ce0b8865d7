"""games/tasks.py: a task that meets a database that does not answer (a restart, a failover)
runs again shortly, backing off, instead of leaving its bot turn or its mail to the sweep a
minute later; an outage longer than its retries is left to the sweep."""

from django.db import InterfaceError, OperationalError

from games import tasks


def flaky(outages: int, answer, calls: list):
    """A service that fails `outages` times as a database that is down would, then answers."""

    def service(**kwargs):
        calls.append(kwargs)
        if len(calls) <= outages:
            error = OperationalError if len(calls) % 2 else InterfaceError
            raise error("server closed the connection unexpectedly")
        return answer

    return service


def test_a_bot_turn_waits_out_a_database_outage(monkeypatch):
    calls = []
    monkeypatch.setattr(tasks.services, "bot_play_turn", flaky(3, True, calls))
    assert tasks.bot_move.apply(args=(7, 12)).get() is True
    assert calls == [{"game_id": 7, "version": 12}] * 4


def test_a_mail_waits_out_a_database_outage(monkeypatch):
    calls = []
    monkeypatch.setattr(tasks.outbox, "notification_send", flaky(2, "sent", calls))
    assert tasks.send_notification.apply(args=(5,)).get() == "sent"
    assert len(calls) == 3


def test_an_outage_longer_than_the_retries_is_left_to_the_sweep(monkeypatch):
    calls = []
    monkeypatch.setattr(tasks.services, "bot_play_turn", flaky(100, True, calls))
    result = tasks.bot_move.apply(args=(7, 12))
    assert isinstance(result.result, OperationalError | InterfaceError)
    assert len(calls) == tasks.bot_move.max_retries + 1


def test_the_fault_runs_empty_the_queue_a_bot_turn_is_sent_to():
    """`make faulttest`'s beat-down scenario loses a bot's turn by emptying its queue, named by
    tests.faults.site.queue_of; the regular suite checks that a bot turn really is sent there,
    and that a worker started without -Q consumes that queue, so that a route renamed in the
    settings cannot leave the scenario emptying a queue that holds nothing."""
    from kombu import Connection

    from config.celery import app
    from tests.faults.site import queue_of

    bot_queue = queue_of("games.tasks.bot_move")
    assert bot_queue in {queue.name for queue in app.conf.task_queues}
    with Connection("memory://") as connection:  # one process's memory: count what is added

        def held() -> dict[str, int]:
            return {
                queue.name: connection.default_channel.queue_declare(queue.name).message_count
                for queue in app.conf.task_queues
            }

        before = held()
        app.signature("games.tasks.bot_move", args=(7, 12)).apply_async(connection=connection)
        added = {name: count - before[name] for name, count in held().items()}
        assert added == {queue.name: int(queue.name == bot_queue) for queue in app.conf.task_queues}
