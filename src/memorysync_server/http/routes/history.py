"""The v1 history routes: append turns to a session (user turns go to extraction), list, delete."""

from __future__ import annotations

from typing import Any

from ...services import Services
from .. import wire
from ..call import Call, request_id, routes


def append_history(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    body = call.body
    if not call.admit("adds"):
        return 200, {"items": [], "request_ids": [], "status": "skipped"}
    appended = s.history.append(
        tenant,
        user,
        session=body["session_id"],
        source=body.get("source", "api"),
        turns=body["turns"],
        extract=body.get("extract", True),
        metadata=body.get("metadata"),
    )
    return 200, {
        "items": [{**wire.turn(turn), "created": created} for turn, created in appended.turns],
        "request_ids": [request_id() for _ in range(appended.extracted)],
        "status": "ok",
    }


def list_history(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not call.admit("reads"):
        return 200, {"items": [], "total": 0}
    body = call.body
    turns, total = s.history.page(tenant, user, body["session_id"], body.get("source"), body.get("limit", 0))
    return 200, {"items": [{**wire.turn(t), "created": False} for t in turns], "total": total}


def delete_history(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    body = call.body
    asked = [n for n in map(wire.id_number, body["ids"]) if n is not None] if "ids" in body else None
    deleted = s.history.delete(
        tenant,
        user,
        session=body.get("session_id"),
        ids=asked,
        source=body.get("source"),
        with_facts=body.get("delete_derived_facts", False),
    )
    return 200, deleted_body(*deleted)


def deleted_body(record_ids: list[int], fact_ids: list[int]) -> dict[str, list[str]]:
    """The answer of both delete routes (history turns, state records)."""
    return {
        "deleted_ids": [wire.row_id(i) for i in record_ids],
        "deleted_fact_ids": [wire.memory_id(i) for i in fact_ids],
    }


ROUTES = routes(append_history, list_history, delete_history)
