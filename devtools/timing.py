"""Timing pages in-process with the test client, for the benchmark commands (bench_pages,
bench_scale): one request after another, each timed alone."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext


@dataclass(frozen=True)
class PageTimes:
    status: int
    queries: int
    times: list[float]  # milliseconds, sorted

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    def percentile(self, share: float) -> float:
        return self.times[max(0, round(len(self.times) * share) - 1)]


def time_page(
    client: Client, url: str, query: dict, requests: int, warmup: int = 3, headers=None
) -> PageTimes:
    """`requests` GETs of `url` (with `headers`, e.g. htmx's) after `warmup` untimed ones; the
    last one's queries counted."""
    headers = headers or {}
    for _ in range(warmup):
        client.get(url, query, **headers)
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        status = client.get(url, query, **headers).status_code
        times.append((time.perf_counter() - start) * 1000)
    with CaptureQueriesContext(connection) as queries:
        client.get(url, query, **headers)
    return PageTimes(status, len(queries), sorted(times))
