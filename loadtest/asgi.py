"""The site's ASGI application for `make loadtest`, timed: gunicorn's uvicorn workers keep no
access log with a duration, so this wraps config.asgi's application and appends, for each HTTP
request, "METHOD PATH STATUS MICROSECONDS" to LOADTEST_ACCESS_LOG (the format the runner gives
gunicorn's own access log with sync workers). The time runs from the request's arrival in the
worker's event loop to its response's last byte: unlike a sync worker's, it includes the wait for
Django's one thread of synchronous code in that worker (where the views run): the client's time
less this is only the wait before a worker's event loop took the request. A stream's line is
written when it ends; the runner ignores its path."""

import os
import time

from config.asgi import application as site

_log = None


def _log_fd() -> int:
    global _log
    if _log is None:  # one O_APPEND descriptor a process: each short line lands whole
        _log = os.open(os.environ["LOADTEST_ACCESS_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    return _log


async def application(scope, receive, send):
    if scope["type"] != "http":
        return await site(scope, receive, send)
    started = time.perf_counter()
    status = 0

    async def timed_send(message):
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        await send(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            micros = int((time.perf_counter() - started) * 1e6)
            line = f"{scope['method']} {scope['path']} {status} {micros}\n"
            os.write(_log_fd(), line.encode())

    await site(scope, receive, timed_send)
