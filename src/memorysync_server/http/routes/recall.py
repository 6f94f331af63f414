"""The v1 memory routes: a turn sent to extraction, recall and query, the list, one memory's status."""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import quote

from ...domain import Fact
from ...services import Services, context
from ...services.errors import memory_not_visible
from ...services.recall import DEFAULT_K, Ranked
from .. import wire
from ..call import Call, request_id, routes

DROPPED_HEADER = "X-MemorySync-Dropped-Types"


def add_turn(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    body = call.body
    if not call.admit("adds"):
        return 201, _turn_answer("skipped", request=None)
    outcome = s.turns.add(
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


def _turn_answer(status: str, *, already_exists: bool = False, request: str | None = "") -> dict[str, Any]:
    return {
        "memory_id": None,
        # Extraction runs inline, so it has started (and finished) when the answer goes out.
        "status": "processing" if status == "completed" else "ok",
        "processing_status": status,
        "already_exists": already_exists,
        "request_id": request_id() if request == "" else request,
    }


def _ranked(s: Services, call: Call, *, gated: bool = False) -> Ranked | None:
    tenant, user = call.tenant_user()
    if not call.admit("reads"):
        return None
    body = call.body
    k = body.get("k", DEFAULT_K)
    if gated:
        # The block is filled to its character budget (context.fit): the k best first, then the
        # next best while there is room.
        k *= context.FILL
    ranked, dropped = s.recall.by_types(tenant, user, body["prompt"], k, body.get("types"), gated=gated)
    if dropped:  # named, so a typo stays visible though the search went on without it
        call.reply_headers[DROPPED_HEADER] = ", ".join(quote(name, safe="") for name in dropped)
    return ranked


def _recalled(fact: Fact, score: float) -> dict[str, Any]:
    return {
        "memory_id": wire.memory_id(fact.id),
        "text": fact.text,
        "score": score,
        "metadata": fact.metadata,
        "created_at": wire.timestamp(fact.created_at),
    }


def recall(s: Services, call: Call) -> tuple[int, Any]:
    relevant = _ranked(s, call, gated=True)
    if relevant is None:
        return 200, {"context": "", "memories": []}
    tenant, user = call.tenant_user()
    prompt = call.body["prompt"]
    turn = partial(s.recall.turn_behind, tenant, user)
    spoken = context.in_their_words(relevant, prompt, s.recall_chars, turn)
    lines = context.widened(context.fit(spoken, prompt, s.recall_chars, turn), prompt, s.recall_chars, turn)
    return 200, {
        "context": "\n".join(text for _, _, text in lines),
        "memories": [_recalled(fact, score) for fact, score, _ in lines],
    }


def query_memories(s: Services, call: Call) -> tuple[int, Any]:
    ranked = _ranked(s, call)
    return 200, {"memories": [] if ranked is None else [_recalled(f, score) for f, score in ranked]}


def list_memories(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.tenant_user()
    if not call.admit("reads"):
        return 200, {"memories": [], "total": 0}
    facts, total = s.memories.page(tenant, user, call.query.get("limit", 0), call.query.get("offset", 0))
    keys = ("memory_id", "text", "source", "metadata", "created_at")
    return 200, {"memories": [{k: wire.fact(f)[k] for k in keys} for f in facts], "total": total}


def memory_status(s: Services, call: Call) -> tuple[int, Any]:
    # Not metered (openapi.yaml): clients poll it while they wait for a write.
    tenant, user = call.end_user()
    asked = call.path["memory_id"]  # the number, or its validated `m_<n>` form
    number = asked if isinstance(asked, int) else int(asked[2:])
    if number > wire.INT64_MAX:
        raise memory_not_visible(number)
    found = s.memories.get(tenant, user, number)
    # Extraction and storage run inline: a memory that can be read is already searchable.
    return 200, {
        "memory_id": number,
        "searchable": True,
        "processing_status": "completed",
        "created_at": wire.timestamp(found.created_at),
    }


ROUTES = routes(add_turn, recall, query_memories, list_memories, memory_status)
