"""The inspector's JSON shapes of what the directory service finds: users, sessions, state namespaces."""

from __future__ import annotations

import json
from typing import Any

from ...domain import UserDetail, UserSummary
from ..wire import timestamp


def users_body(users: list[UserSummary]) -> list[dict[str, Any]]:
    """The tenant's users, most recently active first, with how many rows each kind holds."""
    return [
        {
            "user_id": u.user_id,
            "memories": u.memories,
            "turns": u.turns,
            "state_items": u.state_items,
            "last_activity": timestamp(u.last_activity) if u.last_activity else None,
        }
        for u in users
    ]


def user_body(tenant: str, user_id: str, detail: UserDetail) -> dict[str, Any]:
    """One user's counts, sessions and state namespaces, plus a ``version`` that changes with any write."""
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
