"""Moved to memorysync_server.retrieval.backfill; this shim goes once the open branches land."""

from .retrieval.backfill import (
    BACKLOG,
    BATCH,
    FLUSH_CHUNK,
    IDLE,
    LINGER,
    PENDING,
    RESCAN_ROWS,
    RETRY_AFTER,
    WAIT_LIMIT,
    Backfill,
    Key,
)

__all__ = [
    "BACKLOG",
    "BATCH",
    "FLUSH_CHUNK",
    "IDLE",
    "LINGER",
    "PENDING",
    "RESCAN_ROWS",
    "RETRY_AFTER",
    "WAIT_LIMIT",
    "Backfill",
    "Key",
]
