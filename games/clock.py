"""Clock arithmetic, pure: no database, no Django models read. A turn's clock runs from its start
for the game's time per move, standing still during pauses (the player's vacations); vacations
are whole UTC days. The reads and writes that use it live in games/deadlines/."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings

Pause = tuple[datetime, datetime]


def clock_end(start: datetime, duration: timedelta, pauses: list[Pause]) -> datetime:
    """When `duration` of running time has passed since `start`, the clock standing still during
    `pauses` (sorted, not overlapping)."""
    end = start + duration
    for pause_from, pause_to in pauses:
        if pause_from >= end:
            break
        if pause_to > start:
            end += pause_to - max(pause_from, start)
    return end


def merged_pauses(intervals) -> list[Pause]:
    """The intervals sorted, overlapping ones merged: pauses for clock_end."""
    merged: list[Pause] = []
    for begin, end in sorted(intervals):
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((begin, end))
    return merged


def time_per_move(days: int) -> timedelta:
    return timedelta(days=days)


def reminder_thresholds() -> list[int]:
    """REMINDER_FRACTIONS as whole percents, ascending."""
    return sorted({round(f * 100) for f in settings.REMINDER_FRACTIONS if 0 < f < 1})


def days_of(vacation_from: datetime, vacation_to: datetime) -> set[date]:
    """The UTC calendar days an interval touches."""
    first = vacation_from.astimezone(UTC).date()
    last = (vacation_to.astimezone(UTC) - timedelta(microseconds=1)).date()
    return {first + timedelta(days=n) for n in range((last - first).days + 1)}


def midnight(day: date) -> datetime:
    """The UTC midnight that starts `day`."""
    return datetime.combine(day, time.min, tzinfo=UTC)
