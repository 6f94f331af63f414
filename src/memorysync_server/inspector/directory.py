"""What exists for a tenant, for the inspector: users, sessions, state namespaces; and forgetting a user.

The MemorySync API reads rows of one known user, session or namespace; browsing needs the
lists of those, which no API route gives. Every query here is scoped to one tenant, and the
per-user ones to one (tenant, user), like the API's own reads.

This is the only inspector module that touches storage.
"""

from __future__ import annotations

import json
from typing import Any

from ..storage import Forgotten, Storage
from ..wire import timestamp

MAX_USERS = 1000

__all__ = ["MAX_USERS", "Directory", "Forgotten"]


class Directory:
    """The inspector's JSON shapes over the storage's directory part."""

    def __init__(self, store: Storage) -> None:
        self.store = store

    def users(self, tenant: str, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        """The tenant's users, most recently active first, with how many rows each kind holds."""
        users, total = self.store.directory.users(tenant, limit, offset)
        return [
            {
                "user_id": u.user_id,
                "memories": u.memories,
                "turns": u.turns,
                "state_items": u.state_items,
                "last_activity": timestamp(u.last_activity) if u.last_activity else None,
            }
            for u in users
        ], total

    def user(self, tenant: str, user_id: str) -> dict[str, Any]:
        """One user's counts, sessions and state namespaces, plus a ``version`` that changes with any write."""
        detail = self.store.directory.user(tenant, user_id)
        turns = sum(s.turns for s in detail.sessions)
        items = sum(n.items for n in detail.state)
        version = json.dumps(
            [
                detail.memories,
                detail.last_fact_id,
                turns,
                max((s.last_id for s in detail.sessions), default=0),
                items,
                max((timestamp(n.updated_at) for n in detail.state), default=""),
            ]
        )
        return {
            "tenant_id": tenant,
            "user_id": user_id,
            "memories": detail.memories,
            "turns": turns,
            "state_items": items,
            "sessions": [
                {
                    "session_id": s.session_id,
                    "turns": s.turns,
                    "sources": s.sources,
                    "first_at": timestamp(s.first_at),
                    "last_at": timestamp(s.last_at),
                }
                for s in detail.sessions
            ],
            "state": [{"source": n.source, "namespace": n.namespace, "items": n.items} for n in detail.state],
            "version": version,
        }

    def forget_user(self, tenant: str, user_id: str) -> Forgotten:
        return self.store.directory.forget_user(tenant, user_id)
