"""django-migration-linter over our migrations, as PostgreSQL would run them
(docs/operations.md "Upgrades without a stop"): a new migration may not break the version still
running beside it, nor lock a table for long. Those made before the linter are listed as read."""

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_every_new_migration_passes_the_linter():
    call_command("lintmigrations", verbosity=0)  # exits 1 on an erroneous migration


def test_the_linter_refuses_a_migration_that_locks_a_table(settings):
    """0015 adds a unique constraint and builds indexes inside its transaction: had it not been
    made before the linter, the linter would have refused it."""
    options = settings.MIGRATION_LINTER_OPTIONS
    ignored = [name for name in options["ignore_name"] if name != "0015_start_when_full"]
    settings.MIGRATION_LINTER_OPTIONS = {**options, "ignore_name": ignored}
    with pytest.raises(SystemExit) as refused:
        call_command("lintmigrations", verbosity=0)
    assert refused.value.code == 1
