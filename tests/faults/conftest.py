"""The fault runs' site (tests/faults/site.py), started once for the session and always stopped,
and the recovery figures, printed at the end of the run."""

import shutil

import pytest

from tests.faults.site import Site, started

FIGURES: list[dict] = []


@pytest.fixture(scope="session")
def site():
    for program in ("redis-server", "runuser"):
        if shutil.which(program) is None:
            pytest.fail(f"the fault runs need {program}")
    with started(Site, "faults-") as site:
        yield site


@pytest.fixture
def figures(request):
    """Record a scenario's recovery figures (seconds) for the summary."""

    def record(**values):
        FIGURES.append({"test": request.node.name, **values})

    return record


def pytest_terminal_summary(terminalreporter):
    if not FIGURES:
        return
    columns = ["test", "healthz", "person_move", "bot_move", "mail"]
    terminalreporter.section("fault recovery, seconds after the fault was repaired")
    terminalreporter.write_line(
        "  ".join(f"{c:>14}" if c != "test" else f"{c:<44}" for c in columns)
    )
    for row in FIGURES:
        cells = [f"{row['test']:<44}"]
        for column in columns[1:]:
            value = row.get(column)
            cells.append(f"{'-' if value is None else f'{value:.1f}':>14}")
        terminalreporter.write_line("  ".join(cells))
