"""The vocabulary of memory event types.

Names outside it are dropped rather than refused when a search is narrowed by type, so a client
that knows more types than this server keeps working (:meth:`~memorysync_server.services.recall.Recall.by_types`).
"""

from __future__ import annotations

BUILTIN_EVENT_TYPES = frozenset(
    {"fact", "preference", "profile", "event", "decision", "task", "note", "conversation", "document"}
)

__all__ = ["BUILTIN_EVENT_TYPES"]
