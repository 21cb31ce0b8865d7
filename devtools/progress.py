"""The progress bar of the long commands (bot_tournament, seed_history), on stderr."""

import sys


def progress_bar(unit: str):
    """A function (done, total, elapsed seconds) that redraws the bar, counting `unit`."""

    def show(done: int, total: int, elapsed: float) -> None:
        width = 30
        filled = width * done // total
        eta = elapsed / done * (total - done) if done else 0
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {unit}, "
            f"{elapsed:.0f} s, about {eta:.0f} s left"
        )
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show
