"""Counts in fixed windows of time, kept in the cache (Redis in production, so that every web
process counts together): the site's rate limits on what a player sends (games/ratelimit.py)
and the logins per address (refusals.py)."""

from dataclasses import dataclass

from django.core.cache import cache


@dataclass(frozen=True)
class Window:
    key: str  # the count's key in the cache, the window's number in it
    ends: float  # when the window ends (time.time())


def window_of(name: str, seconds: int, now: float) -> Window:
    """The window of `seconds` that `now` falls in, for the count called `name`."""
    number = int(now // seconds)
    return Window(f"{name}:{number}", (number + 1) * seconds)


def window_add(window: Window, now: float) -> int:
    """One more in `window`: the count so far (0 while the cache does not answer: nothing
    counted, nothing refused)."""
    timeout = max(1, int(window.ends - now) + 1)
    cache.add(window.key, 0, timeout=timeout)
    try:
        return cache.incr(window.key) or 0
    except ValueError:  # the window's key expired between add and incr: a new one
        cache.add(window.key, 1, timeout=timeout)
        return 1
