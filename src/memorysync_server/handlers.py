"""One function per operationId. Input has already passed openapi.yaml validation and auth.

Each write first does its expensive work (extraction, embedding, encoding) and only then opens
the storage's unit of work, which writes; ids and times are turned into their wire form here.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import context, wire
from .auth import Key, check_tenant
from .errors import ApiError, invalid
from .event_types import FILTER_POOL, narrow
from .pipeline import USER_ROLES, Pipeline, TurnPlan, fact_metadata
from .quota import Quota, QuotaMeter
from .retrieval import STATE_FLOOR, STATE_RELATIVE, Backfill, FactSearch, cosine_rank
from .spec import is_blank
from .storage import Fact, NewState, NewTurn, Storage

DEFAULT_K = 10


@dataclass
class Services:
    store: Storage
    pipeline: Pipeline
    search: FactSearch
    meter: QuotaMeter
    backfill: Backfill | None = None

    def close(self) -> None:
        """Stop the background embedder, then release the database."""
        if self.backfill is not None:
            self.backfill.close()
        self.store.close()


@dataclass
class Call:
    key: Key
    body: Any
    path: dict[str, str]
    query: dict[str, Any]
    headers: dict[str, str]
    # Headers the handler wants on its answer (e.g. what it dropped from the request).
    reply_headers: dict[str, str] = field(default_factory=dict)

    def tenant_user(self) -> tuple[str, str]:
        tenant = self.body["tenant_id"] if isinstance(self.body, dict) else self.path["tenant_id"]
        check_tenant(self.key, tenant)
        user = self.body["user_id"] if isinstance(self.body, dict) else self.path["user_id"]
        return tenant, user

    def end_user(self, body: Any = None) -> tuple[str, str]:
        """(tenant, end user) of a legacy call: the ``X-End-User-ID`` header, else the
        ``end_user_id`` of ``body`` (default: the request body); the header wins."""
        user = self.headers.get("x-end-user-id")
        body = self.body if body is None else body
        if user is None and isinstance(body, dict) and isinstance(body.get("end_user_id"), str):
            user = body["end_user_id"]
        if user is None:
            raise ApiError(
                400,
                "No end user: send the X-End-User-ID header naming the end user this call acts for "
                "(or end_user_id in the body, where the route takes one).",
            )
        return self.key.tenant, user


Handler = Callable[[Services, Call], tuple[int, Any]]


def _request_id() -> str:
    return "req_" + uuid.uuid4().hex


def _admit(s: Services, call: Call, kind: str) -> bool:
    quota = call.key.quota
    if quota is not None and call.key.evaluation and not quota.strict:
        # Evaluation keys get a strict 429 where live keys are silently skipped (openapi.yaml, TooManyRequests).
        quota = Quota(adds=quota.adds, reads=quota.reads, strict=True)
    return s.meter.admit(call.key.key, quota, kind)


def _recalled(fact: Fact, score: float) -> dict[str, Any]:
    return {
        "memory_id": wire.memory_id(fact.id),
        "text": fact.text,
        "score": score,
        "metadata": fact.metadata,
        "created_at": wire.timestamp(fact.created_at),
    }


# ---- org ------------------------------------------------------------------------------------
def list_projects(s: Services, call: Call) -> tuple[int, Any]:
    if call.key.evaluation:
        raise ApiError(403, "Evaluation keys lack the projects:read scope; they act in the tenant 'default'.")
    now = wire.timestamp(s.store.now())
    return 200, [
        {
            "id": call.key.project_id,
            "name": f"Local project ({call.key.tenant})",
            "tenant_id": call.key.tenant,
            "is_default": True,
            "memory_count": s.store.facts.count(call.key.tenant),
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


def _ranked(s: Services, call: Call, *, gated: bool = False) -> list[tuple[Fact, float]] | None:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return None
    k = call.body.get("k", DEFAULT_K)
    rank = s.search.recall if gated else s.search.search
    wanted = narrow(s.store, tenant, call.body.get("types"), call.reply_headers)
    if wanted is None:
        return rank(tenant, user, call.body["prompt"], k)
    ranked = rank(
        tenant, user, call.body["prompt"], max(k, FILTER_POOL), keep=lambda f: f.event_type in wanted
    )
    return ranked[:k]


def recall(s: Services, call: Call) -> tuple[int, Any]:
    relevant = _ranked(s, call, gated=True)
    if relevant is None:
        return 200, {"context": "", "memories": []}
    return 200, {
        "context": context.block(fact for fact, _ in relevant),
        "memories": [_recalled(fact, score) for fact, score in relevant],
    }


def query_memories(s: Services, call: Call) -> tuple[int, Any]:
    ranked = _ranked(s, call)
    return 200, {"memories": [] if ranked is None else [_recalled(f, score) for f, score in ranked]}


def list_memories(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return 200, {"memories": [], "total": 0}
    facts, total = s.store.facts.page(tenant, user, call.query.get("limit", 0), call.query.get("offset", 0))
    keys = ("memory_id", "text", "source", "metadata", "created_at")
    return 200, {"memories": [{k: wire.fact(f)[k] for k in keys} for f in facts], "total": total}


def memory_status(s: Services, call: Call) -> tuple[int, Any]:
    # Not metered (openapi.yaml): clients poll it while they wait for a write.
    tenant, user = call.end_user()
    asked = call.path["memory_id"]  # the number, or its validated `m_<n>` form
    number = asked if isinstance(asked, int) else int(asked[2:])
    found = s.store.facts.get(tenant, user, [number]) if number <= wire.INT64_MAX else []
    if not found:
        raise ApiError(
            404, f"memory {number} is not visible to the caller (no such memory for this end user)."
        )
    # Extraction and storage run inline: a memory that can be read is already searchable.
    return 200, {
        "memory_id": number,
        "searchable": True,
        "processing_status": "completed",
        "created_at": wire.timestamp(found[0].created_at),
    }


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
    extract = body.get("extract", True)
    turns = [(turn, _role(turn["role"])) for turn in body["turns"]]

    def extracts(turn: dict[str, Any], role: str) -> bool:
        # A blank turn (an assistant's tool call, an empty user message) is stored, not extracted.
        return extract and role in USER_ROLES and not is_blank(turn["content"])

    def find(turn: dict[str, Any], role: str) -> Any:
        return s.store.turns.find(
            tenant,
            user,
            session,
            idem_key=turn.get("idempotency_key"),
            seq=turn.get("seq"),
            role=role,
            content=turn["content"],
        )

    def plan(turn: dict[str, Any], role: str, *, outside_tx: bool = True) -> TurnPlan:
        return s.pipeline.plan_turn(
            text=turn["content"],
            role=role,
            speaker=turn.get("speaker") or turn.get("idempotency_key"),
            occurred_at=turn.get("occurred_at"),
            metadata=body.get("metadata"),
            scope=(tenant, user) if outside_tx else None,
        )

    # Extraction and embedding happen here, before the unit of work; turns already stored
    # (a retried append) cost nothing.
    plans = {
        i: plan(turn, role)
        for i, (turn, role) in enumerate(turns)
        if extracts(turn, role) and find(turn, role) is None
    }
    items, request_ids = [], []
    with s.store.transaction():
        for i, (turn, role) in enumerate(turns):
            stored, created = s.store.turns.add(
                tenant,
                user,
                NewTurn(
                    session_id=session,
                    source=source,
                    role=role,
                    content=turn["content"],
                    seq=turn.get("seq"),
                    occurred_at=turn.get("occurred_at"),
                    idem_key=turn.get("idempotency_key"),
                    payload=turn.get("payload"),
                    has_payload="payload" in turn,
                ),
            )
            items.append({**wire.turn(stored), "created": created})
            if created and extracts(turn, role):
                # Planned here only if the turn vanished since the check.
                turn_plan = plans.get(i) or plan(turn, role, outside_tx=False)
                s.pipeline.commit_turn(
                    tenant, user, turn_plan, source=source, session_id=session, origin=("history", stored.id)
                )
                request_ids.append(_request_id())
    return 200, {"items": items, "request_ids": request_ids, "status": "ok"}


def list_history(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return 200, {"items": [], "total": 0}
    body = call.body
    turns, total = s.store.turns.page(
        tenant, user, body["session_id"], body.get("source"), body.get("limit", 0)
    )
    return 200, {"items": [{**wire.turn(t), "created": False} for t in turns], "total": total}


def delete_history(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    body = call.body
    asked = [n for n in map(wire.id_number, body["ids"]) if n is not None] if "ids" in body else None
    with s.store.transaction():
        ids = s.store.turns.ids(
            tenant, user, session_id=body.get("session_id"), ids=asked, source=body.get("source")
        )
        deleted = _delete_rows(s, tenant, user, "history", ids, body, s.store.turns.delete)
    return 200, deleted


# ---- state ----------------------------------------------------------------------------------
def put_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    body = call.body
    source, namespace, key = body.get("source", "api"), body["namespace"], body["key"]
    value = body["value"]
    text = body["text"] if "text" in body else json.dumps(value, ensure_ascii=False, sort_keys=True)
    existing = s.store.state.get(tenant, user, source, namespace, key)
    if existing is not None and existing.value == value and existing.text == text:
        return 200, {
            "item": wire.state_item(existing),
            "created": False,
            "request_id": None,
            "deleted_fact_ids": [],
            "status": "ok",
        }
    if not _admit(s, call, "adds"):
        item = (
            wire.state_item(existing) if existing else _unsaved_item(s, namespace, key, value, text, source)
        )
        return 200, {
            "item": item,
            "created": False,
            "request_id": None,
            "deleted_fact_ids": [],
            "status": "skipped",
        }
    index = body.get("index", True)
    record = NewState(
        source=source,
        namespace=namespace,
        key=key,
        value=value,
        text=text,
        indexed=index,
        vector=s.pipeline.embed([text])[0] if index else None,
    )
    drafts = s.pipeline.extract(text, scope=(tenant, user)) if body.get("extract", False) else None
    deleted: list[int] = []
    request_id = None
    with s.store.transaction():
        row, created = s.store.state.put(tenant, user, record)
        if not created and body.get("replace_derived_facts", False):
            deleted = s.store.facts.delete(
                tenant, user, s.store.facts.derived(tenant, user, "state", [row.id])
            )
        if drafts is not None:
            meta = fact_metadata(
                body.get("metadata"),
                write_origin="state-extraction",
                turn_role="user",
                distilled_from=wire.row_id(row.id),
            )
            s.pipeline.store_facts(
                tenant, user, drafts, source=source, metadata=meta, origin=("state", row.id)
            )
            request_id = _request_id()
    return 200, {
        "item": wire.state_item(row),
        "created": created,
        "request_id": request_id,
        "deleted_fact_ids": [wire.memory_id(i) for i in deleted],
        "status": "ok",
    }


def _unsaved_item(
    s: Services, namespace: list[str], key: str, value: Any, text: str, source: str
) -> dict[str, Any]:
    now = wire.timestamp(s.store.now())
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
    row = s.store.state.get(tenant, user, b.get("source", "api"), b["namespace"], b["key"])
    return 200, {"item": None if row is None else wire.state_item(row)}


def list_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return 200, {"items": [], "total": 0}
    b = call.body
    rows = s.store.state.rows(tenant, user, source=b.get("source", "api"), prefix=b.get("namespace_prefix"))
    offset, limit = b.get("offset", 0), b.get("limit", 100)
    return 200, {"items": [wire.state_item(row) for row in rows[offset : offset + limit]], "total": len(rows)}


def search_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return 200, {"items": [], "total": 0}
    b = call.body
    rows = s.store.state.rows(
        tenant, user, source=b.get("source", "api"), prefix=b.get("namespace_prefix"), with_vectors=True
    )
    ranked = cosine_rank(
        s.pipeline.embedder,
        b["query"],
        rows,
        floor=STATE_FLOOR if s.search.dense else s.search.noise_floor,
        relative=STATE_RELATIVE if s.search.dense else 0.0,
    )
    items = [{**wire.state_item(row), "score": score} for score, row in ranked[: b.get("limit", 10)]]
    return 200, {"items": items, "total": len(ranked)}


def list_state_namespaces(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not _admit(s, call, "reads"):
        return 200, {"namespaces": []}
    b = call.body
    found = s.store.state.namespaces(tenant, user, source=b.get("source", "api"), prefix=b.get("prefix"))
    depth = b.get("max_depth")
    if depth is not None:
        # Cutting keeps the order (a sorted list's prefixes are sorted); equal cuts are adjacent.
        cut: list[list[str]] = []
        for namespace in found:
            head = namespace[:depth]
            if not cut or cut[-1] != head:
                cut.append(head)
        found = cut
    offset, limit = b.get("offset", 0), b.get("limit", 100)
    return 200, {"namespaces": found[offset : offset + limit]}


def delete_state(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    b = call.body
    with s.store.transaction():
        ids = s.store.state.ids(tenant, user, b.get("source", "api"), b["namespace"], b.get("keys"))
        deleted = _delete_rows(s, tenant, user, "state", ids, b, s.store.state.delete)
    return 200, deleted


HANDLERS: dict[str, Handler] = {
    fn.__name__: fn
    for fn in (
        list_projects,
        add_turn,
        recall,
        query_memories,
        list_memories,
        memory_status,
        append_history,
        list_history,
        delete_history,
        put_state,
        get_state,
        list_state,
        search_state,
        list_state_namespaces,
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
    delete: Callable[[str, str, list[int]], list[int]],
) -> dict[str, list[str]]:
    """Delete history turns or state rows (inside the caller's transaction), and with
    ``delete_derived_facts`` the facts extracted from them; the response body both routes share."""
    fact_ids: list[int] = []
    if body.get("delete_derived_facts", False):
        fact_ids = s.store.facts.delete(tenant, user, s.store.facts.derived(tenant, user, origin, ids))
    deleted = delete(tenant, user, ids)
    return {
        "deleted_ids": [wire.row_id(i) for i in deleted],
        "deleted_fact_ids": [wire.memory_id(i) for i in fact_ids],
    }
