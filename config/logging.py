"""Logging filters that keep the console of `make run` readable."""

import logging
import os


class QuietPolls(logging.Filter):
    """Drop the web server's line for a request answered 204: an open table polls every 5 s and
    finds nothing new most of the time (thousands of lines an hour). LOG_POLLS=1 keeps them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if os.environ.get("LOG_POLLS") == "1":
            return True
        return getattr(record, "status_code", None) != 204
