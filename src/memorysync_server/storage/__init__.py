"""Storage behind interfaces: handlers, the pipeline and search see only :class:`Storage`.

``open_storage(db)`` picks the engine from the ``db`` string: ``postgresql://…`` (PostgreSQL, needs
the ``postgres`` extra) or a file path (SQLite).
"""

from __future__ import annotations

from pathlib import Path

from .interfaces import (
    EDITABLE_FIELDS,
    KEPT_TURN,
    TRACKED_FIELDS,
    Clock,
    DirectoryStore,
    Fact,
    FactFilter,
    FactsChange,
    FactsListener,
    FactStore,
    Feedback,
    Forgotten,
    LexicalIndex,
    NewFact,
    NewState,
    NewTurn,
    Origin,
    ReceiptStore,
    Revision,
    SettingStore,
    StateRow,
    StateStore,
    Storage,
    StorageConflict,
    StorageFull,
    Turn,
    TurnStore,
    encode_json,
    utc_now,
)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(db: str | Path) -> bool:
    return str(db).startswith(POSTGRES_SCHEMES)


def open_storage(db: str | Path, *, clock: Clock = utc_now) -> Storage:
    """The engine for ``db`` (created or migrated when needed): a ``postgresql://`` URL, or the
    path of a SQLite file."""
    if is_postgres(db):
        try:
            from .postgres import PostgresStorage
        except ImportError as exc:
            raise ImportError(
                f"--db {str(db).split('@')[-1]!r} needs {exc.name!r}: pip install 'memorysync-kit[postgres]'"
            ) from exc
        return PostgresStorage(str(db), clock=clock)
    from .sqlite import SqliteStorage

    return SqliteStorage(db, clock=clock)


__all__ = [
    "EDITABLE_FIELDS",
    "KEPT_TURN",
    "TRACKED_FIELDS",
    "Clock",
    "DirectoryStore",
    "Fact",
    "FactFilter",
    "FactStore",
    "FactsChange",
    "FactsListener",
    "Feedback",
    "Forgotten",
    "LexicalIndex",
    "NewFact",
    "NewState",
    "NewTurn",
    "Origin",
    "ReceiptStore",
    "Revision",
    "SettingStore",
    "StateRow",
    "StateStore",
    "Storage",
    "StorageConflict",
    "StorageFull",
    "Turn",
    "TurnStore",
    "encode_json",
    "is_postgres",
    "open_storage",
    "utc_now",
]
