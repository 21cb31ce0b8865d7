"""Processes of the app started for a run on this machine (gunicorn, a Celery worker, beat,
locust), each in a process group of its own so that a stop or a kill reaches its children too,
its output in a log file. One mechanism for the load test (loadtest/run.py) and the fault runs
(tests/faults), which stop, kill and start them again."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path


class AppProcess:
    def __init__(self, name: str, argv: list[str], *, env: dict, cwd: Path, log_dir: Path):
        self.name, self.argv, self.env, self.cwd = name, argv, env, cwd
        self.log = log_dir / f"{name}.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> AppProcess:
        with self.log.open("a") as out:
            self.process = subprocess.Popen(
                self.argv, cwd=self.cwd, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        return self

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, number: int) -> None:
        if self.alive():
            os.killpg(self.process.pid, number)

    def wait(self, timeout: float) -> bool:
        """Whether it ended within `timeout` seconds."""
        try:
            self.process.wait(timeout=max(0.1, timeout))
        except subprocess.TimeoutExpired:
            return False
        return True

    def stop(self, timeout: float = 20) -> None:
        if not self.alive():
            return
        self.signal(signal.SIGTERM)
        if not self.wait(timeout):
            self.kill()

    def kill(self) -> None:
        """SIGKILL to the whole group: nothing is cleaned up, as when the machine kills it."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):  # the group outlives its leader
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def close(self) -> None:
        """Stopped, and nothing of its group left behind (a killed worker's pool children)."""
        self.stop()
        self.kill()

    def tail(self, lines: int = 60) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


class Processes:
    """The processes a run started (logs in `log_dir`), stopped together at its end: SIGTERM
    to all, then up to `grace` seconds for all, then SIGKILL to what is left."""

    def __init__(self, *, cwd: Path, log_dir: Path):
        self.cwd, self.log_dir = cwd, log_dir
        self.started: dict[str, AppProcess] = {}

    def start(self, name: str, argv: list[str], env: dict) -> AppProcess:
        process = AppProcess(name, argv, env=env, cwd=self.cwd, log_dir=self.log_dir).start()
        self.started[name] = process
        return process

    def check(self) -> None:
        for name, process in self.started.items():
            if not process.alive():
                code = process.process.returncode
                raise RuntimeError(f"{name} exited with {code}: see {process.log}")

    def stop(self, grace: float = 15) -> None:
        for process in self.started.values():
            process.signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        for process in self.started.values():
            if process.process is not None and not process.wait(deadline - time.monotonic()):
                process.kill()
        self.started.clear()
