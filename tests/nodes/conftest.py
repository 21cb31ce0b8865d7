"""The two-node run's cluster (tests/nodes/cluster.py), started once for the session and always
stopped, and its figures, printed at the end of the run."""

import shutil

import pytest

from tests.faults.site import started
from tests.nodes.cluster import Cluster, nginx_binary

FIGURES: list[tuple[str, str]] = []


@pytest.fixture(scope="session")
def cluster():
    found = {"redis-server": shutil.which("redis-server"), "runuser": shutil.which("runuser"),
             "nginx": nginx_binary()}  # fmt: skip
    for program, path in found.items():
        if path is None:
            pytest.fail(f"the two-node run needs {program} (Debian: apt-get install {program})")
    with started(Cluster, "nodes-") as cluster:
        yield cluster


@pytest.fixture
def figure():
    """Record a figure (a name and its text) for the summary."""

    def record(name: str, text: str):
        FIGURES.append((name, text))

    return record


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("two nodes behind nginx")
        for name, text in FIGURES:
            terminalreporter.write_line(f"{name:<48} {text}")
