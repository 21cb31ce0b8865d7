"""The suite keeps its own rules (docs/development.md, "Tests"): shared test code lives in helper
modules, never in a test module that others import; a property test asks for a share of the
Hypothesis profile's count (tests/examples.py), never for a count of its own."""

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
IMPORTS_A_TEST_MODULE = re.compile(r"^\s*from tests(\.\w+)*\.test_\w+ import", re.M)
OWN_COUNT = re.compile(r"max_examples\s*=")


def modules():
    return sorted(p for p in TESTS.rglob("*.py") if p.name != Path(__file__).name)


def test_no_test_module_is_imported_by_another():
    found = [
        str(p.relative_to(TESTS)) for p in modules() if IMPORTS_A_TEST_MODULE.search(p.read_text())
    ]
    assert not found


def test_no_property_test_sets_its_own_count():
    allowed = {"conftest.py", "examples.py"}
    found = [
        str(p.relative_to(TESTS))
        for p in modules()
        if p.name not in allowed and OWN_COUNT.search(p.read_text())
    ]
    assert not found
