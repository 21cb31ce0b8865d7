"""Logging filters that keep the console of `make run` readable."""

import logging
import os


class QuietPolls(logging.Filter):
    """Drop the web server's line for a request answered 204 (an open table polls every few
    seconds and finds nothing new most of the time: thousands of lines an hour) and for static
    files served as they should be (four a page). LOG_POLLS=1 keeps them all."""

    def filter(self, record: logging.LogRecord) -> bool:
        if os.environ.get("LOG_POLLS") == "1":
            return True
        if len(record.args or ()) != 5:
            return True
        # uvicorn's access line: (client, method, path, HTTP version, status)
        _client, method, path, _version, status = record.args
        static = method == "GET" and str(path).startswith("/static/")
        return status != 204 and not (static and status in (200, 304))
