"""One function per operationId. Input has already passed openapi.yaml validation and auth."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .auth import Key, check_tenant
from .errors import ApiError, invalid
from .pipeline import USER_ROLES, Pipeline, fact_metadata
from .quota import Quota, QuotaMeter
from .search import RELEVANCE_THRESHOLD, FactSearch, cosine_rank
from .store import Store

DEFAULT_K = 10


@dataclass
class Services:
    store: Store
    pipeline: Pipeline
    search: FactSearch
    meter: QuotaMeter


@dataclass
class Call:
    key: Key
    body: Any
    path: dict[str, str]
    query: dict[str, Any]
    headers: dict[str, str]

    def tenant_user(self) -> tuple[str, str]:
        tenant = self.body["tenant_id"] if isinstance(self.body, dict) else self.path["tenant_id"]
        check_tenant(self.key, tenant)
        user = self.body["user_id"] if isinstance(self.body, dict) else self.path["user_id"]
        return tenant, user

    def end_user(self) -> tuple[str, str]:
        return self.key.tenant, self.headers["x-end-user-id"]


Handler = Callable[[Services, Call], tuple[int, Any]]


def _request_id() -> str:
    return "req_" + uuid.uuid4().hex


def _admit(s: Services, call: Call, kind: str) -> bool:
    quota = call.key.quota
    if quota is not None and call.key.evaluation and not quota.strict:
        # Contract §1: evaluation keys get a strict 429 where live keys are silently skipped.
        quota = Quota(adds=quota.adds, reads=quota.reads, strict=True)
    return s.meter.admit(call.key.key, quota, kind)


def _recalled(fact: dict[str, Any]) -> dict[str, Any]:
    return {
        "memory_id": fact["memory_id"],
        "text": fact["text"],
        "score": fact["score"],
        "metadata": fact["metadata"],
        "created_at": fact["created_at"],
    }


# ---- org ------------------------------------------------------------------------------------
def list_projects(s: Services, call: Call) -> tuple[int, Any]:
    if call.key.evaluation:
        raise ApiError(403, "Evaluation keys lack the projects:read scope; they act in the tenant 'default'.")
    now = s.store.now()
    return 200, [
        {
            "id": call.key.project_id,
            "name": f"Local project ({call.key.tenant})",
            "tenant_id": call.key.tenant,
            "is_default": True,
            "memory_count": s.store.count_facts(call.key.tenant),
            "created_at": now,
            "updated_at": now,
        }
    ]


# ---- memory ---------------------------------------------------------------------------------
def add_turn(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    body = call.body
    if not _admit(s, call, "adds"):
        return 201, _turn_answer("skipped", request_id=None)
    outcome = s.pipeline.ingest_turn(
        tenant,
        user,
        text=body["text"],
        role=body.get("role"),
        speaker=body.get("speaker"),
        occurred_at=body.get("occurred_at"),
        source=body.get("source", "chat"),
        metadata=body.get("metadata"),
    )
    return 201, _turn_answer(outcome.processing_status, already_exists=outcome.already_exists)


def _turn_answer(status: str, *, already_exists: bool = False, request_id: str | None = "") -> dict[str, Any]:
    return {
        "memory_id": None,
        # Extraction runs inline, so it has started (and finished) when the answer goes out.
        "status": "processing" if status == "completed" else "ok",
        "processing_status": status,
        "already_exists": already_exists,
        "request_id": _request_id() if request_id == "" else request_id,
    }


def _ranked(s: Services, call: Call) -> tuple[str, str, list[dict[str, Any]]] | None:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return None
    k = call.body.get("k", DEFAULT_K)
    return tenant, user, s.search.search(tenant, user, call.body["prompt"], k)


def recall(s: Services, call: Call) -> tuple[int, Any]:
    ranked = _ranked(s, call)
    if ranked is None:
        return 200, {"context": "", "memories": []}
    relevant = [fact for fact in ranked[2] if fact["score"] >= RELEVANCE_THRESHOLD]
    return 200, {
        "context": "\n".join(f"- {fact['text']}" for fact in relevant),
        "memories": [_recalled(fact) for fact in relevant],
    }


def query_memories(s: Services, call: Call) -> tuple[int, Any]:
    ranked = _ranked(s, call)
    return 200, {"memories": [] if ranked is None else [_recalled(f) for f in ranked[2]]}


def list_memories(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return 200, {"memories": [], "total": 0}
    facts, total = s.store.list_facts(tenant, user, call.query.get("limit", 0), call.query.get("offset", 0))
    return 200, {
        "memories": [
            {k: f[k] for k in ("memory_id", "text", "source", "metadata", "created_at")} for f in facts
        ],
        "total": total,
    }


def add_memory(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    body = call.body
    ref = body.get("client_ref")
    with s.store.transaction():
        if ref is not None:
            earlier = s.store.client_ref(tenant, user, ref)
            if earlier is not None:
                return 200, {"status": "skipped", "reason": "already_ingested", "memory_ids": earlier}
        if not _admit(s, call, "adds"):
            return 200, {"status": "skipped", "reason": "no_high_value_content", "memory_ids": []}
        facts = s.pipeline.extractor.extract(body["text"], explicit=True)
        source = body.get("source", "api")
        meta = fact_metadata(body.get("metadata"), session_id=body.get("session_id"), write_origin="explicit")
        ids = s.pipeline.store_facts(tenant, user, facts, source=source, metadata=meta)
        if not ids:
            # Every fact already known: answer with the stored one rather than pretend nothing is there.
            existing = [s.store.find_fact_by_text(tenant, user, fact) for fact in facts]
            ids = [row["id"] for row in existing if row is not None]
        if ref is not None and ids:
            s.store.record_client_ref(tenant, user, ref, ids)
        if not ids:
            return 200, {"status": "skipped", "reason": "no_high_value_content", "memory_ids": []}
        first = s.store.get_facts(tenant, user, [ids[0]])[0]
    return 200, {k: first[k] for k in ("id", "text", "source", "metadata", "created_at")}


# SQLite integers are signed 64-bit: a larger id names nothing that could be stored.
INT64_MAX = 2**63 - 1


def _fact_number(value: Any) -> int | None:
    number = value if isinstance(value, int) else int(value[2:])
    return number if number <= INT64_MAX else None


def forget_memories(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    ids = [n for n in (_fact_number(v) for v in call.body["memory_ids"]) if n is not None]
    deleted = s.store.delete_facts(tenant, user, ids, dry_run=call.body.get("dry_run", False))
    return 200, {"deleted_ids": [f"m_{n}" for n in deleted]}


# ---- history --------------------------------------------------------------------------------
def _role(raw: str) -> str:
    role = raw.strip().lower()
    return {"human": "user", "ai": "assistant"}.get(role, role)


def append_history(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    body = call.body
    if not _admit(s, call, "adds"):
        return 200, {"items": [], "request_ids": [], "status": "skipped"}
    session, source = body["session_id"], body.get("source", "api")
    items, request_ids = [], []
    with s.store.transaction():
        for turn in body["turns"]:
            role = _role(turn["role"])
            existing = s.store.find_turn(
                tenant,
                user,
                session,
                idem_key=turn.get("idempotency_key"),
                seq=turn.get("seq"),
                role=role,
                content=turn["content"],
            )
            if existing is not None:
                items.append({**existing, "created": False})
                continue
            stored = s.store.insert_turn(
                tenant,
                user,
                session_id=session,
                source=source,
                role=role,
                content=turn["content"],
                seq=turn.get("seq"),
                occurred_at=turn.get("occurred_at"),
                payload=turn.get("payload"),
                has_payload="payload" in turn,
                idem_key=turn.get("idempotency_key"),
            )
            items.append({**stored, "created": True})
            if body.get("extract", True) and role in USER_ROLES:
                s.pipeline.ingest_turn(
                    tenant,
                    user,
                    text=turn["content"],
                    role=role,
                    speaker=turn.get("idempotency_key"),
                    occurred_at=turn.get("occurred_at"),
                    source=source,
                    metadata=body.get("metadata"),
                    session_id=session,
                    origin=("history", int(stored["id"][2:])),
                )
                request_ids.append(_request_id())
    return 200, {"items": items, "request_ids": request_ids, "status": "ok"}


def list_history(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return 200, {"items": [], "total": 0}
    body = call.body
    turns, total = s.store.list_turns(
        tenant, user, body["session_id"], body.get("source"), body.get("limit", 0)
    )
    return 200, {"items": [{**t, "created": False} for t in turns], "total": total}


def delete_history(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    body = call.body
    with s.store.transaction():
        ids = s.store.turn_ids(
            tenant,
            user,
            session_id=body.get("session_id"),
            ids=[n for n in (int(i[2:]) for i in body["ids"]) if n <= INT64_MAX] if "ids" in body else None,
            source=body.get("source"),
        )
        deleted = _delete_rows(s, tenant, user, "history", ids, body, s.store.delete_turns)
    return 200, deleted


# ---- state ----------------------------------------------------------------------------------
def _public(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if not k.startswith("_")}


def put_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    body = call.body
    source, namespace, key = body.get("source", "api"), body["namespace"], body["key"]
    value = body["value"]
    text = body["text"] if "text" in body else json.dumps(value, ensure_ascii=False, sort_keys=True)
    with s.store.transaction():
        existing = s.store.get_state(tenant, user, source, namespace, key)
        if existing is not None and existing["value"] == value and existing["text"] == text:
            return 200, {
                "item": existing,
                "created": False,
                "request_id": None,
                "deleted_fact_ids": [],
                "status": "ok",
            }
        if not _admit(s, call, "adds"):
            item = existing or _unsaved_item(s, namespace, key, value, text, source)
            return 200, {
                "item": item,
                "created": False,
                "request_id": None,
                "deleted_fact_ids": [],
                "status": "skipped",
            }
        index = body.get("index", True)
        vector = s.pipeline.embedder.embed([text])[0] if index else None
        item, created = s.store.upsert_state(
            tenant,
            user,
            source=source,
            namespace=namespace,
            key=key,
            value=value,
            text=text,
            indexed=index,
            vector=vector,
        )
        row_id = int(item["id"][2:])
        deleted: list[int] = []
        if existing is not None and body.get("replace_derived_facts", False):
            deleted = s.store.delete_facts(
                tenant, user, s.store.derived_fact_ids(tenant, user, "state", [row_id])
            )
        request_id = None
        if body.get("extract", False):
            facts = s.pipeline.extractor.extract(text)
            meta = fact_metadata(
                body.get("metadata"),
                write_origin="state-extraction",
                turn_role="user",
                distilled_from=item["id"],
            )
            s.pipeline.store_facts(
                tenant, user, facts, source=source, metadata=meta, origin=("state", row_id)
            )
            request_id = _request_id()
    return 200, {
        "item": item,
        "created": created,
        "request_id": request_id,
        "deleted_fact_ids": [f"m_{i}" for i in deleted],
        "status": "ok",
    }


def _unsaved_item(
    s: Services, namespace: list[str], key: str, value: Any, text: str, source: str
) -> dict[str, Any]:
    now = s.store.now()
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
    if not _admit(s, call, "reads"):
        return 200, {"item": None}
    b = call.body
    return 200, {"item": s.store.get_state(tenant, user, b.get("source", "api"), b["namespace"], b["key"])}


def list_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return 200, {"items": [], "total": 0}
    b = call.body
    rows = s.store.state_rows(tenant, user, source=b.get("source", "api"), prefix=b.get("namespace_prefix"))
    offset, limit = b.get("offset", 0), b.get("limit", 100)
    return 200, {"items": rows[offset : offset + limit], "total": len(rows)}


def search_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return 200, {"items": [], "total": 0}
    b = call.body
    rows = s.store.state_rows(
        tenant, user, source=b.get("source", "api"), prefix=b.get("namespace_prefix"), with_vectors=True
    )
    ranked = cosine_rank(s.pipeline.embedder, b["query"], rows)
    items = [{**_public(item), "score": score} for score, item in ranked[: b.get("limit", 10)]]
    return 200, {"items": items, "total": len(ranked)}


def delete_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    b = call.body
    with s.store.transaction():
        ids = s.store.state_ids(tenant, user, b.get("source", "api"), b["namespace"], b.get("keys"))
        deleted = _delete_rows(s, tenant, user, "state", ids, b, s.store.delete_state_rows)
    return 200, deleted


HANDLERS: dict[str, Handler] = {
    fn.__name__: fn
    for fn in (
        list_projects,
        add_turn,
        recall,
        query_memories,
        list_memories,
        add_memory,
        forget_memories,
        append_history,
        list_history,
        delete_history,
        put_state,
        get_state,
        list_state,
        search_state,
        delete_state,
    )
}

__all__ = ["HANDLERS", "Call", "Services", "invalid"]


def _delete_rows(
    s: Services,
    tenant: str,
    user: str,
    origin: str,
    ids: list[int],
    body: dict[str, Any],
    delete: Callable[[list[int]], Any],
) -> dict[str, list[str]]:
    """Delete history turns or state rows (inside the caller's transaction), and with
    ``delete_derived_facts`` the facts extracted from them; the response body both routes share."""
    fact_ids: list[int] = []
    if body.get("delete_derived_facts", False):
        fact_ids = s.store.delete_facts(tenant, user, s.store.derived_fact_ids(tenant, user, origin, ids))
    delete(ids)
    return {"deleted_ids": [f"h_{i}" for i in ids], "deleted_fact_ids": [f"m_{i}" for i in fact_ids]}
