"""Markers for tests that need a real server: skipped with a visible reason when none is
configured, and a failure under REQUIRE_SERVICES=1 (what CI sets)."""

import os

import pytest

HAVE_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
HAVE_REDIS = os.environ.get("REDIS_URL", "").startswith("redis")
REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
IMPLIED = {"worker": ("postgres", "redis"), "concurrency": ("postgres",)}


def pytest_collection_modifyitems(config, items):
    for item in items:
        for marker, needs in IMPLIED.items():
            if marker in item.keywords:
                for need in needs:
                    item.add_marker(getattr(pytest.mark, need))


def pytest_runtest_setup(item):
    missing = []
    if "postgres" in item.keywords and not HAVE_POSTGRES:
        missing.append("PostgreSQL (set DATABASE_URL=postgres://...)")
    if "redis" in item.keywords and not HAVE_REDIS:
        missing.append("Redis (set REDIS_URL=redis://...)")
    if missing:
        reason = "needs " + " and ".join(missing)
        if REQUIRE_SERVICES:
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}", pytrace=False)
        pytest.skip(reason)


def pytest_report_header(config):
    return (
        f"services: postgres={'yes' if HAVE_POSTGRES else 'no'} "
        f"redis={'yes' if HAVE_REDIS else 'no'} require={REQUIRE_SERVICES}"
    )
