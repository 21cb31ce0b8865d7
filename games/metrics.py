"""The operator's figures that are counted as things happen, in Prometheus's format
(prometheus-client): requests by view and status with their times, the database's queries and
their times, the tasks by name and outcome with their times, the open event streams. What is read
when Prometheus asks (the outbox, the queues, the bot turns waiting, the heartbeats) is
games/health.py's SiteFigures; /metrics (games/views/health.py) serves both behind a token.

Several processes on one machine (gunicorn's workers, uvicorn, the Celery worker) add up their
figures through files when PROMETHEUS_MULTIPROC_DIR names a folder (prometheus-client's
multiprocess mode, docs/operations.md "Metrics"); without it each process serves its own."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)

REQUESTS = Counter("tt_http_requests", "Requests answered, by view, method and status.",
                   ["view", "method", "status"])  # fmt: skip
REQUEST_SECONDS = Histogram("tt_http_request_seconds", "Time to answer (to the first byte of a "
                            "stream), by view.", ["view"], buckets=SECONDS)  # fmt: skip
QUERIES = Counter("tt_db_queries", "Database queries, by connection.", ["alias"])
QUERY_SECONDS = Histogram("tt_db_query_seconds", "Time of a database query, by connection.",
                          ["alias"], buckets=(0.0005, 0.001, 0.0025, *SECONDS))  # fmt: skip
TASKS = Counter("tt_tasks", "Tasks by name and outcome: succeeded, failed, retried.",
                ["task", "outcome"])  # fmt: skip
TASK_SECONDS = Histogram("tt_task_seconds", "Time a task ran, by name.", ["task"],
                         buckets=SECONDS)  # fmt: skip
STREAMS = Gauge("tt_event_streams_open", "Tables' and programs' streams of events open.",
                multiprocess_mode="livesum")  # fmt: skip


# HTTP's methods (RFC 9110, and PATCH): any other a client invents is counted as one, "other".
METHODS = frozenset(
    {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"}
)


def request_observed(view: str, method: str, status: int, seconds: float) -> None:
    """A request answered (games/tracing.py, the first middleware, times it): counted by the view
    that answered it (its URL name; "unmatched" for a 404 no route knew), its method and its
    status. No label holds what a client typed, so no client adds series without bound."""
    REQUESTS.labels(view, method if method in METHODS else "other", str(status)).inc()
    REQUEST_SECONDS.labels(view).observe(seconds)


def timed_query(execute: Callable, sql: str, params: Any, many: bool, context: dict) -> Any:
    """A database execute wrapper: every query counted and timed, by connection."""
    started = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        alias = context["connection"].alias
        QUERIES.labels(alias).inc()
        QUERY_SECONDS.labels(alias).observe(time.perf_counter() - started)


def count_queries(sender: Any, connection: Any, **kwargs: Any) -> None:
    """connection_created: each new connection (web, stream, worker) counts its queries."""
    if timed_query not in connection.execute_wrappers:
        connection.execute_wrappers.append(timed_query)


def task_observed(name: str, state: str, seconds: float | None) -> None:
    """A task ran (games/tracing.py times it): counted by its outcome, and timed."""
    if state == "SUCCESS":
        TASKS.labels(name, "succeeded").inc()
    elif state == "FAILURE":
        TASKS.labels(name, "failed").inc()
    if seconds is not None:
        TASK_SECONDS.labels(name).observe(seconds)


def task_retried(request: Any = None, **kwargs: Any) -> None:
    TASKS.labels(getattr(request, "task", "unknown"), "retried").inc()


def connect() -> None:
    """Counts the database's queries and the tasks retried (AppConfig.ready, in every process);
    games/tracing.py hands over the requests and the tasks run."""
    from celery import signals
    from django.db.backends.signals import connection_created

    connection_created.connect(count_queries, dispatch_uid="metrics.count_queries")
    signals.task_retry.connect(task_retried, dispatch_uid="metrics.task_retried")
