"""The v1 state routes: put, get, list, search, namespaces, delete."""

from __future__ import annotations

from typing import Any

from ...services import Services
from ...services.state import PutRequest, state_text
from .. import wire
from ..auth import check_tenant
from ..call import Call, request_id, routes
from ..errors import ApiError
from .history import deleted_body


def put_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, _ = call.tenant_user()
    return 200, _put(s, call, tenant, [call.body])[0]


# openapi.yaml, PutStateManyRequest: x-max-total-text-chars. A record's text is encoded (and,
# with extract, read clause by clause); this keeps one call's work near two of the largest puts',
# so one client's batch cannot hold the server's heavy work for minutes.
MAX_TOTAL_TEXT_CHARS = 32_000


def put_state_many(s: Services, call: Call) -> tuple[int, Any]:
    items = call.body["items"]
    for at, item in enumerate(items):
        try:
            check_tenant(call.key, item["tenant_id"])
        except ApiError as refused:
            raise ApiError(refused.status, f"items[{at}]: {refused.detail}", refused.headers) from None
    total = sum(len(state_text(item)) for item in items)
    if total > MAX_TOTAL_TEXT_CHARS:
        raise ApiError(
            422,
            f"The items' texts add up to {total:,} characters; one call takes at most "
            f"{MAX_TOTAL_TEXT_CHARS:,} (an item's text is its `text`, or its value as JSON without "
            "one). Nothing was stored: send the items in smaller calls.",
        )
    return 200, {"items": _put(s, call, call.key.tenant, items)}


def _put(s: Services, call: Call, tenant: str, bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The answers of ``bodies`` (put bodies of ``tenant``), in order: an identical record is not
    written, one past the plan's quota is skipped, the rest are stored together, in order."""
    answers: list[dict[str, Any] | None] = []
    writes: list[tuple[int, PutRequest]] = []
    written: set[tuple[Any, ...]] = set()
    for at, body in enumerate(bodies):
        request = _request(body)
        record = (request.user, request.source, tuple(request.namespace), request.key)
        existing = s.state.get(tenant, request.user, request.source, request.namespace, request.key)
        answer: dict[str, Any] = {
            "created": False,
            "request_id": None,
            "deleted_fact_ids": [],
            "status": "ok",
        }
        # A record named again in one call is written again, in order, as two puts would be (the
        # earlier is not stored yet to compare with).
        if (
            existing is not None
            and existing.value == request.value
            and existing.text == request.text
            and record not in written
        ):
            answers.append({**answer, "item": wire.state_item(existing)})
        elif not call.admit("adds"):
            item = wire.state_item(existing) if existing else _unsaved_item(s, request)
            answers.append({**answer, "item": item, "status": "skipped"})
        else:
            answers.append(None)
            writes.append((at, request))
            written.add(record)
    stored = s.state.put_many(tenant, [request for _, request in writes]) if writes else []
    for (at, _), put in zip(writes, stored, strict=True):
        answers[at] = {
            "item": wire.state_item(put.row),
            "created": put.created,
            "request_id": request_id() if put.extracted else None,
            "deleted_fact_ids": [wire.memory_id(i) for i in put.deleted_fact_ids],
            "status": "ok",
        }
    return [answer for answer in answers if answer is not None]


def _request(body: dict[str, Any]) -> PutRequest:
    return PutRequest(
        user=body["user_id"],
        source=body.get("source", "api"),
        namespace=body["namespace"],
        key=body["key"],
        value=body["value"],
        text=state_text(body),
        index=body.get("index", True),
        extract=body.get("extract", False),
        as_fact=body.get("as_fact", False),
        replace_derived_facts=body.get("replace_derived_facts", False),
        metadata=body.get("metadata"),
    )


def _unsaved_item(s: Services, request: PutRequest) -> dict[str, Any]:
    now = wire.timestamp(s.now())
    # Over quota nothing is stored; h_0 marks an item that has no row.
    return {
        "id": "h_0",
        "namespace": request.namespace,
        "key": request.key,
        "value": request.value,
        "text": request.text,
        "source": request.source,
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


ROUTES = routes(
    put_state, put_state_many, get_state, list_state, search_state, list_state_namespaces, delete_state
)
