"""Storage behind interfaces: the services and search see only :class:`Storage`; every SQL
statement lives here, one folder per engine (``sqlite/``, ``postgres/``).

``open_storage(db)`` picks the engine from the ``db`` string: ``postgresql://…`` (PostgreSQL, needs
the ``postgres`` extra) or a file path (SQLite).
"""

from __future__ import annotations

from pathlib import Path

from ..defaults import is_postgres
from ..domain import Clock, utc_now
from .interfaces import (
    DirectoryStore,
    FactStore,
    LexicalForm,
    LexicalIndex,
    ReceiptStore,
    SettingStore,
    StateStore,
    Storage,
    TurnStore,
    as_written,
)


def postgres_schema_current(url: str) -> bool:
    """Whether the PostgreSQL database at ``url`` is at this release's schema version already
    (nothing to migrate). One short connection; no pool, no engine, no numpy: the parent of
    ``serve --workers N``, which only supervises, asks this instead of opening the database."""
    import psycopg

    from .postgres.schema import MIGRATIONS

    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
    except psycopg.Error:  # no schema_migrations yet, or anything else: open_storage will say
        return False
    return row is not None and row[0] == len(MIGRATIONS)


def open_storage(
    db: str | Path, *, clock: Clock = utc_now, lexical_form: LexicalForm = as_written
) -> Storage:
    """The engine for ``db`` (created or migrated when needed): a ``postgresql://`` URL, or the
    path of a SQLite file. ``lexical_form`` gives what the lexical index stores of a fact's text."""
    if is_postgres(db):
        try:
            from .postgres.engine import PostgresStorage
        except ImportError as exc:
            raise ImportError(
                f"--db {str(db).split('@')[-1]!r} needs {exc.name!r}: pip install 'memorysync-kit[postgres]'"
            ) from exc
        return PostgresStorage(str(db), clock=clock, lexical_form=lexical_form)
    from .sqlite.engine import SqliteStorage

    return SqliteStorage(db, clock=clock, lexical_form=lexical_form)


__all__ = [
    "DirectoryStore",
    "FactStore",
    "LexicalIndex",
    "ReceiptStore",
    "SettingStore",
    "StateStore",
    "Storage",
    "TurnStore",
    "is_postgres",
    "open_storage",
    "postgres_schema_current",
]
