"""What one sweep did, counted."""

from dataclasses import asdict, dataclass


@dataclass
class SweepReport:
    timed_out: int = 0  # turns that ran out: the seat went on autopilot
    timeouts: int = 0  # further timeouts counted on autopilot
    dropped: int = 0  # players dropped
    reminders: int = 0  # reminders queued
    bots_requeued: int = 0  # bot turns queued again (their task was lost)
    mail_requeued: int = 0  # emails queued again (their task was lost)

    def as_dict(self) -> dict:
        return asdict(self)
