"""The sqlite engine: one file, WAL, a checkpoint thread of its own."""

from .engine import SqliteStorage

__all__ = ["SqliteStorage"]
