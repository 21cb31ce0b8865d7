"""The one domain error: a player's mistake or a request that cannot be honoured. Views turn it
into a 4xx carrying its message; never a 500."""

from django.http import Http404
from django.utils.translation import gettext as _


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


class NoSuchGame(GameError, Http404):
    """No game by that number, or one the viewer may not look at: the same 404, which tells
    nothing of it. An Http404 too, so that a page raising it gets the site's 404 page."""

    status = 404

    def __init__(self) -> None:
        super().__init__(_("There is no such game."))
