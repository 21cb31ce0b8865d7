"""A player's time zone (User.time_zone): the middleware activates it for pages, mail rendering
overrides it for the recipient, and the `zoned` filter names it next to an absolute time."""

from __future__ import annotations

import zoneinfo

from django.utils import formats, timezone


def zone_of(user) -> zoneinfo.ZoneInfo:
    """The player's zone; UTC for visitors and for a name this machine's tzdata no longer knows."""
    try:
        return zoneinfo.ZoneInfo(getattr(user, "time_zone", "") or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def zoned(value) -> str:
    """`value` as a time in the active zone and the active language's format (config/formats/),
    followed by that zone's name: 'Wed 2 Dec, 16:00 Asia/Jakarta'."""
    if not value:
        return ""
    local = timezone.localtime(value)
    written = formats.date_format(local, "SHORT_DATETIME_FORMAT")
    return f"{written} {timezone.get_current_timezone_name()}"


def local_time(value) -> str:
    """`value` as `zoned` writes it, without the zone's name: for a short line, where the zone
    is named nearby (or in its title)."""
    if not value:
        return ""
    return formats.date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT")
