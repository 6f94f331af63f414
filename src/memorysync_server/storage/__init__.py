"""Storage behind interfaces: handlers, the pipeline and search see only :class:`Storage`.

``open_storage(db)`` picks the engine from the ``db`` string: a file path (SQLite) today.
"""

from __future__ import annotations

from pathlib import Path

from .interfaces import (
    Clock,
    DirectoryStore,
    Fact,
    FactsChange,
    FactsListener,
    FactStore,
    Forgotten,
    LexicalIndex,
    NewFact,
    NewState,
    NewTurn,
    Origin,
    ReceiptStore,
    SettingStore,
    StateRow,
    StateStore,
    Storage,
    StorageFull,
    Turn,
    TurnStore,
    encode_json,
    utc_now,
)


def open_storage(db: str | Path, *, clock: Clock = utc_now) -> Storage:
    """The engine for ``db``: a SQLite file path (created and migrated when needed)."""
    from .sqlite import SqliteStorage

    return SqliteStorage(db, clock=clock)


__all__ = [
    "Clock",
    "DirectoryStore",
    "Fact",
    "FactStore",
    "FactsChange",
    "FactsListener",
    "Forgotten",
    "LexicalIndex",
    "NewFact",
    "NewState",
    "NewTurn",
    "Origin",
    "ReceiptStore",
    "SettingStore",
    "StateRow",
    "StateStore",
    "Storage",
    "StorageFull",
    "Turn",
    "TurnStore",
    "encode_json",
    "open_storage",
    "utc_now",
]
