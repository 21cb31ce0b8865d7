"""A request id that follows the work: given to each web request (or taken from the proxy's
X-Request-ID), sent with every task the request queues (a header of the task's message), taken up
by the worker while it runs that task, and so carried by every log line of the request, of its
tasks and of the mails they send. With LOG_FORMAT=json each request and each task is one JSON
line (JsonLines below), which an operator can search by that id (docs/operations.md "Logs")."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from celery.worker import strategy as celery_strategy
from django.contrib import auth
from django.utils.functional import SimpleLazyObject

from . import metrics

REQUEST_ID: ContextVar[str] = ContextVar("request_id", default="")
GIVEN = re.compile(r"[A-Za-z0-9._-]{8,64}")  # a proxy's id is kept only if it looks like one
requests_log = logging.getLogger("threethirteen.request")
tasks_log = logging.getLogger("threethirteen.task")


def request_trace(get_response: Callable) -> Callable:
    """Middleware (first in MIDDLEWARE): the request's id (the proxy's X-Request-ID, else a new
    one), said back in the response's X-Request-ID; once it is answered, its figures for /metrics
    and its line in the log."""

    def begin(request: Any) -> tuple[Any, float]:
        given = request.headers.get("X-Request-ID", "")
        token = REQUEST_ID.set(given if GIVEN.fullmatch(given) else uuid.uuid4().hex)
        return token, time.perf_counter()

    def end(request: Any, response: Any, token: Any, started: float) -> None:
        response["X-Request-ID"] = REQUEST_ID.get()
        seconds = time.perf_counter() - started
        match = getattr(request, "resolver_match", None)
        view = (match.view_name or "unnamed") if match else "unmatched"
        metrics.request_observed(view, request.method, response.status_code, seconds)
        requests_log.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "view": match.view_name if match else None,
                "user": getattr(request, "user_read_id", None),  # see user_noted
                "ms": round(seconds * 1000, 1),
            },
        )
        REQUEST_ID.reset(token)

    if iscoroutinefunction(get_response):

        async def middleware(request: Any) -> Any:
            token, started = begin(request)
            response = await get_response(request)
            end(request, response, token, started)
            return response

        return markcoroutinefunction(middleware)

    def sync_middleware(request: Any) -> Any:
        token, started = begin(request)
        response = get_response(request)
        end(request, response, token, started)
        return response

    return sync_middleware


request_trace.sync_capable = True  # type: ignore[attr-defined]
request_trace.async_capable = True  # type: ignore[attr-defined]


def user_noted(get_response: Callable) -> Callable:
    """Middleware, right after Django's AuthenticationMiddleware: `request.user` stays as lazy as
    Django made it (auth.get_user, once, when something reads it), and the player it found is
    noted for the request's log line, which never looks the player up itself."""

    def note(request: Any) -> None:
        def read() -> Any:
            user = auth.get_user(request)
            request.user_read_id = user.pk if user.is_authenticated else None
            return user

        request.user = SimpleLazyObject(read)

    if iscoroutinefunction(get_response):

        async def middleware(request: Any) -> Any:
            note(request)
            return await get_response(request)

        return markcoroutinefunction(middleware)

    def sync_middleware(request: Any) -> Any:
        note(request)
        return get_response(request)

    return sync_middleware


user_noted.sync_capable = True  # type: ignore[attr-defined]
user_noted.async_capable = True  # type: ignore[attr-defined]


def task_sent(headers: dict | None = None, **kwargs: Any) -> None:
    """before_task_publish: the id of the request (or task) queuing it goes with the task."""
    if headers is not None and REQUEST_ID.get():
        headers["request_id"] = REQUEST_ID.get()


def task_strategy(task: Any, app: Any, consumer: Any, **kwargs: Any) -> Callable:
    """How the worker takes a task's message (Celery's own way, CELERY_TASK_ANNOTATIONS), under
    the id the task was sent with: Celery logs "Task … received" then, before the task runs (and
    task_started takes the id up), and that line carries the id as the task's later lines do. A
    task sent without one (beat's) is given its id here, in the headers its run reads."""
    take = celery_strategy.default(task, app, consumer, **kwargs)

    def take_traced(message: Any, *args: Any, **kwargs: Any) -> Any:
        headers = message.headers if message.headers is not None else {}
        headers["request_id"] = str(headers.get("request_id") or "") or uuid.uuid4().hex
        token = REQUEST_ID.set(headers["request_id"])
        try:
            return take(message, *args, **kwargs)
        finally:
            REQUEST_ID.reset(token)

    return take_traced


_running: dict[str, tuple[Any, float]] = {}


def task_started(task_id: str = "", task: Any = None, **kwargs: Any) -> None:
    """task_prerun: the worker takes up the id the task was sent with (a new one for beat's)."""
    given = getattr(task.request, "request_id", None) if task is not None else None
    token = REQUEST_ID.set(given or uuid.uuid4().hex)
    _running[task_id] = (token, time.perf_counter())


def task_ended(task_id: str = "", task: Any = None, state: str = "", **kwargs: Any) -> None:
    """task_postrun: the task's figures for /metrics and its line in the log, then the worker
    lets the id go."""
    token, started = _running.pop(task_id, (None, None))
    seconds = None if started is None else time.perf_counter() - started
    name = getattr(task, "name", "unknown")
    metrics.task_observed(name, state, seconds)
    tasks_log.info(
        "%s %s",
        name,
        state,
        extra={"task": name, "task_id": task_id, "state": state,
               "ms": round((seconds or 0) * 1000, 1)},
    )  # fmt: skip
    if token is not None:
        REQUEST_ID.reset(token)


def connect() -> None:
    """Tasks carry the id of what queued them (AppConfig.ready, in every process)."""
    from celery import signals

    signals.before_task_publish.connect(task_sent, dispatch_uid="tracing.task_sent")
    signals.task_prerun.connect(task_started, dispatch_uid="tracing.task_started")
    signals.task_postrun.connect(task_ended, dispatch_uid="tracing.task_ended")
    if logging.getLogRecordFactory() is not record_with_request_id:
        logging.setLogRecordFactory(record_with_request_id)


_make_record = logging.getLogRecordFactory()


def record_with_request_id(*args: Any, **kwargs: Any) -> logging.LogRecord:
    """Every log record, whatever its handler, carries the current request id ("" outside)."""
    record = _make_record(*args, **kwargs)
    record.request_id = REQUEST_ID.get()
    return record


# Not fields of a line: the record's own attributes, and uvicorn's copy of its message with the
# terminal's colours in it.
STANDARD = set(vars(logging.makeLogRecord({}))) | {
    "message",
    "asctime",
    "request_id",
    "color_message",
}


class JsonLines(logging.Formatter):
    """One JSON object a line: the time, the level, the logger, the message, the request id and
    whatever the call added (`extra`)."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", ""),
        }
        line.update({k: v for k, v in vars(record).items() if k not in STANDARD})
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


JsonLines.converter = time.gmtime  # type: ignore[assignment]
