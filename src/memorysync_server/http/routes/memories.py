"""The legacy ``/memory/*`` routes: one end user's memories as ``Memory`` objects (openapi.yaml).

The end user is ``X-End-User-ID`` (else a body ``end_user_id`` where the route takes one).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from ...domain import TRACKED_FIELDS, FactFilter
from ...services import Services, context
from ...services.errors import Conflicting
from ...services.memories import Added, unique
from ...services.recall import DEFAULT_K, Narrowing
from .. import wire
from ..call import Call, routes
from ..errors import ApiError


def _path_id(call: Call) -> int:
    # openapi.yaml has checked that it is an integer in range.
    value = call.path["memory_id"]
    return value if isinstance(value, int) else int(value)


# ---- add ------------------------------------------------------------------------------------
def add_memory(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    body = call.body
    skipped: dict[str, Any] = {"status": "skipped", "reason": "no_high_value_content", "memory_ids": []}
    earlier = s.memories.replayed(tenant, user, body.get("client_ref"))
    if earlier is not None:
        return 200, {**skipped, "reason": "already_ingested", "memory_ids": earlier}
    if not call.admit("adds"):
        return 200, {"status": "ok"}  # silent mode: nothing stored, nothing said about why
    added = s.memories.add(tenant, user, body, deduplicate=body.get("deduplicate", True))
    if added.first is None:
        return 200, {**skipped, "reason": added.reason, "memory_ids": added.ids}
    return 200, wire.memory(added.first)


def bulk_add_memories(s: Services, call: Call) -> tuple[int, Any]:
    items = call.body["items"]
    if not call.admit("adds"):
        return 207, {"total": len(items), "created": 0, "skipped": 0, "rejected": 0}
    deduplicate = call.body.get("deduplicate", True)
    results = []
    for index, item in enumerate(items):
        try:
            tenant, user = call.end_user(item)
        except ApiError:
            results.append(
                {"index": index, "status": "rejected", "memory_ids": [], "reason": "missing_end_user"}
            )
            continue
        earlier = s.memories.replayed(tenant, user, item.get("client_ref"))
        added = (
            Added("skipped", earlier, "already_ingested")
            if earlier is not None
            else s.memories.add(tenant, user, item, deduplicate=deduplicate)
        )
        results.append(
            {"index": index, "status": added.status, "memory_ids": added.ids, "reason": added.reason}
        )
    counts = Counter(r["status"] for r in results)
    return 207, {
        "total": len(items),
        "created": counts["created"],
        "skipped": counts["skipped"],
        "rejected": counts["rejected"],
        "results": results,
    }


# ---- search ---------------------------------------------------------------------------------
def _narrowing(filters: dict[str, Any]) -> Narrowing:
    return Narrowing(
        memory_type=filters.get("memory_type"),
        source=filters.get("source"),
        tags=tuple(filters.get("tags") or ()),
        since=wire.moment(filters["since"]) if "since" in filters else None,
        until=wire.moment(filters["until"]) if "until" in filters else None,
    )


def search_memories(s: Services, call: Call) -> tuple[int, Any]:
    started = time.perf_counter()
    tenant, user = call.end_user()
    body = call.body
    ranked = (
        s.recall.by_filters(
            tenant, user, body["query"], body.get("k", DEFAULT_K), _narrowing(body.get("filters") or {})
        )
        if call.admit("reads")
        else []
    )
    return 200, {
        "memories": [wire.memory(fact, score) for fact, score in ranked],
        "context": context.block(fact for fact, _ in ranked),
        "latency_ms": round((time.perf_counter() - started) * 1000, 3),
        "session_id": body.get("session_id"),
        "query_intent": None,
    }


def retrieve_memories(s: Services, call: Call) -> tuple[int, Any]:
    return search_memories(s, call)


# ---- read one, export -----------------------------------------------------------------------
def get_memory(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    return 200, wire.memory(s.memories.get(tenant, user, _path_id(call)))


def get_memory_history(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    memory_id = _path_id(call)
    rows, total = s.memories.revisions(
        tenant, user, memory_id, call.query.get("limit", 100), call.query.get("offset", 0)
    )
    return 200, {
        "memory_id": memory_id,
        "total": total,
        "revisions": [
            {
                "revision": r.revision,
                "event": r.event,
                "changed_fields": r.changed_fields,
                "diff": r.diff,
                "actor": r.actor,
                "created_at": wire.timestamp(r.created_at),
            }
            for r in rows
        ],
        "tracked_fields": list(TRACKED_FIELDS),
    }


def export_memories(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    facts = s.memories.page(tenant, user)[0] if call.admit("reads") else []
    return 200, {
        "user_id": wire.export_user_number(tenant, user),
        "memories": [wire.memory(fact) for fact in facts],
        "generated_at": wire.timestamp(s.now()),
    }


# ---- edit -----------------------------------------------------------------------------------
def update_memory(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    return 200, wire.memory(s.memories.edit(tenant, user, _path_id(call), call.body, ["body"]))


def batch_update_memories(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    items = call.body["items"]
    seen: dict[int, int] = {}
    for index, item in enumerate(items):
        if item["memory_id"] in seen:
            # Two edits of one memory in one batch conflict (which one wins?): a 409, not a guess.
            raise Conflicting(
                f"Conflicting edits: memory_id {item['memory_id']} is both item {seen[item['memory_id']]} and "
                f"item {index}; list each memory once (merge its edits into one item).",
            )
        seen[item["memory_id"]] = index
    edited = s.memories.edit_many(tenant, user, items, ["body", "items"])
    results = [
        {
            "index": index,
            "memory_id": e.memory_id,
            "status": "not_found" if e.changed_fields is None else "updated",
            "changed_fields": e.changed_fields or [],
        }
        for index, e in enumerate(edited)
    ]
    counts = Counter(r["status"] for r in results)
    return 207, {
        "total": len(items),
        "updated": counts["updated"],
        "not_found": counts["not_found"],
        "results": results,
    }


# ---- feedback -------------------------------------------------------------------------------
def give_memory_feedback(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    memory_id = _path_id(call)
    signal = call.body["signal"]
    given = s.feedback.give(tenant, user, memory_id, signal, call.body.get("comment"))
    return 200, {
        "memory_id": memory_id,
        "signal": signal,
        "importance_before": given.before,
        "importance_after": given.after,
        "adjustment": round(given.after - given.before, 6),
        "influenced_ranking": given.after != given.before,
        "summary": given.summary(),
    }


# ---- forget ---------------------------------------------------------------------------------
def forget_memories(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    body = call.body
    dry_run = body.get("dry_run", False)
    if "memory_ids" in body:
        ids = [n for n in (wire.id_number(v) for v in body["memory_ids"]) if n is not None]
        return 200, s.memories.forget(tenant, user, ids=ids, dry_run=dry_run)
    filters = body["filters"]
    where = FactFilter(
        source=filters.get("source"),
        event_type=filters.get("event_type"),
        tags=tuple(unique(filters.get("tags", []))),
        before=wire.moment(filters["before"]) if "before" in filters else None,
        after=wire.moment(filters["after"]) if "after" in filters else None,
    )
    return 200, s.memories.forget(tenant, user, where=where, dry_run=dry_run)


ROUTES = routes(
    add_memory,
    bulk_add_memories,
    search_memories,
    retrieve_memories,
    get_memory,
    update_memory,
    batch_update_memories,
    get_memory_history,
    export_memories,
    give_memory_feedback,
    forget_memories,
)
