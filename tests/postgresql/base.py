"""PostgreSQL as the tests use it (config/settings/test.py): Django's backend, but the tables are
emptied after a test that commits (`transaction=True`, a live server, a worker) by DELETE, as
Django does on SQLite, instead of one TRUNCATE. TRUNCATE gives each table and index new files and
took about a second every time; deleting the few rows a test made takes milliseconds. The order
does not matter: every foreign key Django makes on PostgreSQL is checked at the commit."""

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:  # what only TRUNCATE's options do
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        delete = style.SQL_KEYWORD("DELETE FROM")
        return [f"{delete} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
