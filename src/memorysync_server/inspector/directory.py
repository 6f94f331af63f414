"""What exists for a tenant, for the inspector: users, sessions, state namespaces; and forgetting a user.

The MemorySync API reads rows of one known user, session or namespace; browsing needs the
lists of those, which no API route gives. Every query here is scoped to one tenant, and the
per-user ones to one (tenant, user), like the API's own reads.

This is the only inspector module that touches storage.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..store import Store

MAX_USERS = 1000
# SQLite caps the parameters of one statement; deletes of a large user go in slices.
_SLICE = 500


@dataclass(frozen=True)
class Forgotten:
    memories: int
    turns: int
    state_items: int


class Directory:
    def __init__(self, store: Store) -> None:
        self.store = store

    def _q(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        return self.store._q(sql, params)

    def users(self, tenant: str, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        """The tenant's users, most recently active first, with how many rows each kind holds."""
        union = (
            "SELECT user_id, 1 AS m, 0 AS t, 0 AS s, created_at AS at FROM facts WHERE tenant = ?1"
            " UNION ALL SELECT user_id, 0, 1, 0, created_at FROM history WHERE tenant = ?1"
            " UNION ALL SELECT user_id, 0, 0, 1, updated_at FROM state WHERE tenant = ?1"
        )
        total = self._q(f"SELECT COUNT(DISTINCT user_id) FROM ({union})", (tenant,))[0][0]
        rows = self._q(
            f"SELECT user_id, SUM(m), SUM(t), SUM(s), MAX(at) FROM ({union})"
            " GROUP BY user_id ORDER BY MAX(at) DESC, user_id LIMIT ?2 OFFSET ?3",
            (tenant, limit, offset),
        )
        users = [
            {"user_id": r[0], "memories": r[1], "turns": r[2], "state_items": r[3], "last_activity": r[4]}
            for r in rows
        ]
        return users, int(total)

    def user(self, tenant: str, user_id: str) -> dict[str, Any]:
        """One user's counts, sessions and state namespaces, plus a ``version`` that changes with any write."""
        scope = (tenant, user_id)
        facts = self._q("SELECT COUNT(*), MAX(id) FROM facts WHERE tenant = ? AND user_id = ?", scope)[0]
        sessions = self._q(
            "SELECT session_id, COUNT(*), GROUP_CONCAT(DISTINCT source), MIN(created_at), MAX(created_at),"
            " MAX(id) FROM history WHERE tenant = ? AND user_id = ? GROUP BY session_id"
            " ORDER BY MAX(created_at) DESC, session_id",
            scope,
        )
        state = self._q(
            "SELECT source, namespace, COUNT(*), MAX(updated_at) FROM state WHERE tenant = ? AND user_id = ?"
            " GROUP BY source, ns_path ORDER BY source, ns_path",
            scope,
        )
        turns = sum(r[1] for r in sessions)
        items = sum(r[2] for r in state)
        version = json.dumps(
            [
                facts[0],
                facts[1],
                turns,
                max((r[5] for r in sessions), default=0),
                items,
                max((r[3] for r in state), default=""),
            ]
        )
        return {
            "tenant_id": tenant,
            "user_id": user_id,
            "memories": int(facts[0]),
            "turns": turns,
            "state_items": items,
            "sessions": [
                {
                    "session_id": r[0],
                    "turns": r[1],
                    "sources": sorted((r[2] or "").split(",")),
                    "first_at": r[3],
                    "last_at": r[4],
                }
                for r in sessions
            ],
            "state": [{"source": r[0], "namespace": json.loads(r[1]), "items": r[2]} for r in state],
            "version": version,
        }

    def forget_user(self, tenant: str, user_id: str) -> Forgotten:
        """Delete everything stored for one user of one tenant, in one transaction."""
        store = self.store
        scope = (tenant, user_id)
        with store.transaction():
            fact_ids = [r[0] for r in self._q("SELECT id FROM facts WHERE tenant = ? AND user_id = ?", scope)]
            turn_ids = store.turn_ids(tenant, user_id, session_id=None, ids=None, source=None)
            state_ids = [
                r[0] for r in self._q("SELECT id FROM state WHERE tenant = ? AND user_id = ?", scope)
            ]
            for start in range(0, max(len(fact_ids), len(turn_ids), len(state_ids)), _SLICE):
                store.delete_facts(tenant, user_id, fact_ids[start : start + _SLICE])
                store.delete_turns(turn_ids[start : start + _SLICE])
                store.delete_state_rows(state_ids[start : start + _SLICE])
            # Replay receipts and client refs would make a resent turn look "already stored".
            store._x("DELETE FROM receipts WHERE tenant = ? AND user_id = ?", scope)
            store._x("DELETE FROM client_refs WHERE tenant = ? AND user_id = ?", scope)
        return Forgotten(memories=len(fact_ids), turns=len(turn_ids), state_items=len(state_ids))
