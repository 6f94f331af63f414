"""What can go wrong below the services, whatever the engine: the services and HTTP map these
to answers (507, a retry) without knowing which database raised them."""

from __future__ import annotations


class StorageFull(Exception):
    """The database has no room for a write (disk or quota full). The unit of work was rolled
    back, so nothing it held was stored and everything stored before is intact."""


class StorageConflict(Exception):
    """The engine aborted a unit of work to settle a conflict with a concurrent one (a deadlock,
    a serialization failure). Nothing of it was stored: running it again is safe, and
    :meth:`~memorysync_server.storage.Storage.atomic` does so before this ever reaches a caller."""


__all__ = ["StorageConflict", "StorageFull"]
