"""Private PostgreSQL and Redis servers that a fault test may stop, kill and start again without
disturbing anything else on the machine: each has its own port and its own folder, and listens on
127.0.0.1 only. `close()` always leaves nothing running. (The app's own processes:
loadtest/processes.py.)"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from tests.workers import free_port, port_taken, wait_for


class PrivateRedis:
    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.folder = tempfile.mkdtemp(prefix="redis-fault-")
        self.process = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        if port_taken(self.port):
            raise RuntimeError(f"port {self.port} is taken: another Redis is running there")
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", self.folder],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        if not wait_for(self.answers, 10, interval=0.1):
            raise RuntimeError(f"redis-server on {self.port} did not answer")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)

    def close(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


class PrivatePostgres:
    """A cluster of its own (initdb into a temporary folder, trust authentication), run as the
    postgres user when this process is root (PostgreSQL refuses to run as root)."""

    def __init__(self, port: int):
        self.port = port
        self.folder = Path(tempfile.mkdtemp(prefix="pg-fault-"))
        self.data = self.folder / "data"
        binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not binaries:
            raise RuntimeError("PostgreSQL's server binaries are not installed")
        self.bin = Path(binaries[-1])
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def run(self, *argv: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *argv], check=True, capture_output=True, timeout=60)

    def create(self) -> None:
        if port_taken(self.port):
            raise RuntimeError(f"port {self.port} is taken: another PostgreSQL is running there")
        self.run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
                 "-l", str(self.folder / "server.log"), "-w", "start")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        """`fast` closes every connection and shuts down cleanly; `immediate` is a crash."""
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def close(self) -> None:
        try:
            if self.running():
                self.stop("immediate")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
