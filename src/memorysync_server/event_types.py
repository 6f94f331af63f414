"""The vocabulary of memory event types, and narrowing a search to some of them (``types``).

Names outside the vocabulary are dropped rather than refused, so a client that knows more types
than this server keeps working; the answer names what it dropped so a typo stays visible.
"""

from __future__ import annotations

from urllib.parse import quote

from .storage import Storage

BUILTIN_EVENT_TYPES = frozenset(
    {"fact", "preference", "profile", "event", "decision", "task", "note", "conversation", "document"}
)
# A narrowed search ranks this many of the best matches and keeps those of the wanted types.
FILTER_POOL = 1000
DROPPED_HEADER = "X-MemorySync-Dropped-Types"


def narrow(
    store: Storage, tenant: str, names: list[str] | None, reply_headers: dict[str, str]
) -> frozenset[str] | None:
    """The event types a search keeps, or None for "every type" (``names`` absent, or every
    name outside the vocabulary: the built-in types plus those the tenant's memories carry).
    Dropped names go into ``reply_headers``."""
    if not names:
        return None
    known = [name for name in names if name in BUILTIN_EVENT_TYPES]
    if len(known) < len(names):
        stored = store.facts.event_types(tenant)
        known = [name for name in names if name in BUILTIN_EVENT_TYPES or name in stored]
    dropped = [name for name in dict.fromkeys(names) if name not in known]
    if dropped:
        reply_headers[DROPPED_HEADER] = ", ".join(quote(name, safe="") for name in dropped)
    return frozenset(known) or None
