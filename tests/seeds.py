"""Seeded test games, so that every failure replays: each game a test makes gets a seed derived
from the test's node id and how many games it made before (the n-th game of a test always has
the same deal), and a failing test prints its games' seeds (tests/conftest.py)."""

import hashlib
import os

_made: dict[str, list[str]] = {}


def current_node() -> str:
    """The running test's node id ('tests/competitions/test_seeks.py::test_junk[case]'), as
    pytest reports it."""
    return os.environ.get("PYTEST_CURRENT_TEST", "outside-a-test").rsplit(" (", 1)[0]


def seed_for_test() -> str:
    """The next seed of the running test: the same on every run of that test."""
    node = current_node()
    seeds = _made.setdefault(node, [])
    seed = hashlib.sha256(f"{node}#{len(seeds)}".encode()).hexdigest()[:32]
    seeds.append(seed)
    return seed


def seeds_made(node: str) -> list[str]:
    return list(_made.get(node, ()))


def forget(node: str) -> None:
    """Start the test's count again (a rerun of the same node makes the same seeds)."""
    _made.pop(node, None)
