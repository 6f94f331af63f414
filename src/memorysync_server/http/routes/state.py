"""The v1 state routes: put, get, list, search, namespaces, delete."""

from __future__ import annotations

from typing import Any

from ...services import Services
from ...services.state import state_text
from .. import wire
from ..call import Call, request_id, routes
from .history import deleted_body


def put_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    body = call.body
    source, namespace, key, value = body.get("source", "api"), body["namespace"], body["key"], body["value"]
    text = state_text(body)
    existing = s.state.get(tenant, user, source, namespace, key)
    unchanged = existing is not None and existing.value == value and existing.text == text
    answer: dict[str, Any] = {"created": False, "request_id": None, "deleted_fact_ids": [], "status": "ok"}
    if existing is not None and unchanged:
        return 200, {**answer, "item": wire.state_item(existing)}
    if not call.admit("adds"):
        item = (
            wire.state_item(existing) if existing else _unsaved_item(s, namespace, key, value, text, source)
        )
        return 200, {**answer, "item": item, "status": "skipped"}
    put = s.state.put(
        tenant,
        user,
        source=source,
        namespace=namespace,
        key=key,
        value=value,
        text=text,
        index=body.get("index", True),
        extract=body.get("extract", False),
        as_fact=body.get("as_fact", False),
        replace_derived_facts=body.get("replace_derived_facts", False),
        metadata=body.get("metadata"),
    )
    return 200, {
        "item": wire.state_item(put.row),
        "created": put.created,
        "request_id": request_id() if put.extracted else None,
        "deleted_fact_ids": [wire.memory_id(i) for i in put.deleted_fact_ids],
        "status": "ok",
    }


def _unsaved_item(
    s: Services, namespace: list[str], key: str, value: Any, text: str, source: str
) -> dict[str, Any]:
    now = wire.timestamp(s.now())
    # Over quota nothing is stored; h_0 marks an item that has no row.
    return {
        "id": "h_0",
        "namespace": namespace,
        "key": key,
        "value": value,
        "text": text,
        "source": source,
        "created_at": now,
        "updated_at": now,
    }


def get_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not call.admit("reads"):
        return 200, {"item": None}
    b = call.body
    row = s.state.get(tenant, user, b.get("source", "api"), b["namespace"], b["key"])
    return 200, {"item": None if row is None else wire.state_item(row)}


def list_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not call.admit("reads"):
        return 200, {"items": [], "total": 0}
    b = call.body
    rows = s.state.rows(tenant, user, b.get("source", "api"), b.get("namespace_prefix"))
    offset, limit = b.get("offset", 0), b.get("limit", 100)
    return 200, {"items": [wire.state_item(row) for row in rows[offset : offset + limit]], "total": len(rows)}


def search_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not call.admit("reads"):
        return 200, {"items": [], "total": 0}
    b = call.body
    ranked = s.state.search(tenant, user, b.get("source", "api"), b.get("namespace_prefix"), b["query"])
    items = [{**wire.state_item(row), "score": score} for score, row in ranked[: b.get("limit", 10)]]
    return 200, {"items": items, "total": len(ranked)}


def list_state_namespaces(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not call.admit("reads"):
        return 200, {"namespaces": []}
    b = call.body
    found = s.state.namespaces(tenant, user, b.get("source", "api"), b.get("prefix"), b.get("max_depth"))
    offset, limit = b.get("offset", 0), b.get("limit", 100)
    return 200, {"namespaces": found[offset : offset + limit]}


def delete_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    b = call.body
    deleted = s.state.delete(
        tenant,
        user,
        b.get("source", "api"),
        b["namespace"],
        b.get("keys"),
        with_facts=b.get("delete_derived_facts", False),
    )
    return 200, deleted_body(*deleted)


ROUTES = routes(put_state, get_state, list_state, search_state, list_state_namespaces, delete_state)
