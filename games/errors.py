"""The one domain error: a player's mistake or a request that cannot be honoured. Views turn it
into a 4xx carrying its message; never a 500."""


class GameError(Exception):
    """A player's mistake or a request that cannot be honoured; the message is for the player."""

    status = 400
    retry_after: int | None = None  # seconds, for a 429

    def __init__(self, message: str, *, status: int | None = None, retry_after: int | None = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
        self.retry_after = retry_after


class StaleVersion(GameError):
    """The player acted on a table that has moved on since they looked."""

    status = 409
