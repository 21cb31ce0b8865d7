"""The embedded default's broker: kombu's filesystem transport, made safe for a reader and
writers that run at once (the worker reads while the web process, beat and the worker write).

kombu's own (5.7.0, the newest) opens a message's file under its final name and only then writes
it, and its reader takes files without a lock: a worker that lists the folder in between reads an
empty or half-written file, and the JSONDecodeError stops the worker with the message lost (kombu
issue #1551). Here a message is written under a name no reader looks at and renamed into place
whole (a rename is atomic within a folder), and a reader claims a file by renaming it before it
reads it; a file that still cannot be read is set aside, logged, and skipped."""

import contextlib
import logging
import os
import tempfile
import uuid
from functools import cached_property
from pathlib import Path
from queue import Empty
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

# Names a reader skips: kombu's reader takes only names ending ".<queue>.msg".
WRITING_SUFFIX = ".writing"


def write_whole(folder: str | Path, name: str, data: bytes, *, keep_existing=False) -> None:
    """Write `data` to `folder`/`name` so that the name shows either nothing or all of it; with
    `keep_existing`, a file already there under that name is left as it is."""
    descriptor, partial = tempfile.mkstemp(dir=folder, prefix=".", suffix=WRITING_SUFFIX)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
        if keep_existing:
            with contextlib.suppress(FileExistsError):
                os.link(partial, os.path.join(folder, name))
        else:
            os.replace(partial, os.path.join(folder, name))
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        # kombu's name: its clock, then a uuid, so that a folder sorted by name is in order.
        name = f"{monotonic() * 1000:.0f}_{uuid.uuid4()}.{queue}.msg"
        try:
            write_whole(self.data_folder_out, name, str_to_bytes(dumps(payload)))
        except OSError as exc:
            raise ChannelError(f"Cannot add file {name!r} to directory") from exc

    def _get(self, queue):
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.partition(".")[2] != f"{queue}.msg":
                continue
            claimed = self.claimed_folder / name
            try:
                # Renamed, not copied: of two readers only one can take a file.
                os.replace(os.path.join(self.data_folder_in, name), claimed)
            except FileNotFoundError:
                continue
            payload = claimed.read_bytes()
            try:
                message = loads(bytes_to_str(payload))
            except ValueError:
                self.set_aside(claimed)
                continue
            claimed.unlink()
            return message
        raise Empty()

    def set_aside(self, claimed: Path) -> None:
        damaged = self.claimed_folder.parent / "damaged"
        damaged.mkdir(exist_ok=True)
        claimed.replace(damaged / claimed.name)
        logger.error("Broker message %s could not be read; kept in %s.", claimed.name, damaged)

    @cached_property
    def claimed_folder(self) -> Path:
        """Beside the queue's folder, so that a claim is a rename on the same file system."""
        folder = Path(self.data_folder_in).parent / "claimed"
        folder.mkdir(exist_ok=True)
        return folder

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        # kombu creates an exchange's table empty and fills it after: a reader in between finds
        # no JSON. A new table appears here already holding its first queue.
        file = self._exchange_file(exchange)
        if not file.exists():
            self.control_folder.mkdir(exist_ok=True)
            table = [filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")]
            write_whole(
                self.control_folder, file.name, str_to_bytes(dumps(table)), keep_existing=True
            )
        super()._queue_bind(exchange, routing_key, pattern, queue)


class Transport(filesystem.Transport):
    Channel = Channel
