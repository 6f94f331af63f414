"""The legacy ``/memory/*`` routes: one end user's memories as ``Memory`` objects (openapi.yaml).

The end user is ``X-End-User-ID`` (else a body ``end_user_id`` where the route takes one). Writes
do their extraction and embedding first, then open one unit of work; edits record revisions in
the storage, in the same unit of work as the change.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from . import context, wire
from .errors import ApiError, invalid
from .event_types import FILTER_POOL
from .handlers import DEFAULT_K, Call, Handler, Services
from .handlers import _admit as admit
from .pipeline import RESERVED_KEYS, Drafts, Labels, fact_metadata
from .retrieval import content_words, stem
from .spec import json_size
from .storage import EDITABLE_FIELDS, TRACKED_FIELDS, Fact, FactFilter

# Who a caller-made change is recorded as (the server's own changes have no actor).
ACTOR = "api"
# A restatement of a stored fact (see _near_duplicates) is at least this close by cosine.
NEAR_DUPLICATE = 0.8
NEUTRAL_IMPORTANCE = 0.5
IMPORTANCE_FLOOR, IMPORTANCE_CEILING = 0.05, 1.0
SIGNAL_STEP = {"positive": 0.1, "negative": -0.1, "retrieved": 0.02, "ignored": -0.02}
RISING, FALLING = frozenset({"positive", "retrieved"}), frozenset({"negative", "ignored"})
RECENT_SIGNALS = 10
# Edited metadata stays within what a write may send (openapi.yaml, Metadata).
MAX_METADATA_KEYS, MAX_METADATA_BYTES = 64, 16_384
# Deletes by filter go to the storage in slices (SQLite caps the parameters of a statement).
DELETE_SLICE = 500


def _not_visible(memory_id: int) -> ApiError:
    return ApiError(
        404, f"memory {memory_id} is not visible to the caller (no such memory for this end user)."
    )


def _path_id(call: Call) -> int:
    # openapi.yaml has checked that it is an integer in range.
    value = call.path["memory_id"]
    return value if isinstance(value, int) else int(value.strip())


def _visible(s: Services, tenant: str, user: str, memory_id: int) -> Fact:
    found = s.store.facts.get(tenant, user, [memory_id])
    if not found:
        raise _not_visible(memory_id)
    return found[0]


_MOMENT = re.compile(r"^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$")


def moment(text: str) -> datetime:
    """An RFC 3339 date-time (already checked by openapi.yaml) as an aware UTC datetime; moments
    beyond what a datetime holds in UTC are clamped to its range."""
    m = _MOMENT.match(text)
    assert m is not None, text
    zone = "+00:00" if m[4] in "Zz" else m[4]
    parsed = datetime.fromisoformat(f"{m[1]}T{m[2]}.{(m[3] or '').ljust(6, '0')[:6]}{zone}")
    try:
        return parsed.astimezone(timezone.utc)
    except OverflowError:
        edge = datetime.min if parsed.year == 1 else datetime.max
        return edge.replace(tzinfo=timezone.utc)


def _tags(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


# ---- add ------------------------------------------------------------------------------------
@dataclass
class _Added:
    status: str  # created | skipped (then ``reason`` says why; a duplicate has ``first``)
    ids: list[int]
    reason: str | None = None
    first: Fact | None = None


def _words(text: str) -> frozenset[str]:
    return frozenset(stem(word) for word in content_words(text))


def _near_duplicates(s: Services, tenant: str, user: str, drafts: Drafts) -> tuple[Drafts, list[int]]:
    """``drafts`` without the facts that restate a stored fact, and the ids of those stored facts.
    A restatement has the same content words (stop words, order and word endings aside: "User
    plays cello" restates "User plays the cello") and a close vector; a different number or
    name makes a different fact however close the vectors are."""
    if not drafts.texts:
        return drafts, []
    keep, matched = [], []
    for i, (text, vector) in enumerate(zip(drafts.texts, drafts.vectors, strict=True)):
        nearest = s.search.nearest(tenant, user, vector, before=wire.INT64_MAX)
        same = None
        if nearest is not None and nearest[1] >= NEAR_DUPLICATE:
            stored = s.store.facts.get(tenant, user, [nearest[0]])
            if stored and _words(stored[0].text) == _words(text):
                same = stored[0].id
        if same is None:
            keep.append(i)
        else:
            matched.append(same)
    return Drafts([drafts.texts[i] for i in keep], [drafts.vectors[i] for i in keep]), matched


def _embedded(s: Services, tenant: str, user: str, drafts: Drafts) -> Drafts:
    """``drafts`` with every vector computed now (a restatement is found by its vector), the
    user's facts still waiting for the background embedder embedded first, in the same batch."""
    pending = [i for i, vector in enumerate(drafts.vectors) if len(vector) == 0]
    if not pending:
        return drafts
    texts = [drafts.texts[i] for i in pending]
    backfill = s.pipeline.backfill
    vectors = backfill.flush(tenant, user, also=texts) if backfill is not None else None
    if vectors is None or len(vectors) != len(texts):
        vectors = s.pipeline.embed(texts)
    out = list(drafts.vectors)
    for i, vector in zip(pending, vectors, strict=True):
        out[i] = vector
    return Drafts(drafts.texts, out)


def _add(s: Services, tenant: str, user: str, item: dict[str, Any], *, deduplicate: bool) -> _Added:
    """One explicit write (an add, or one item of a bulk add), after the quota check."""
    ref = item.get("client_ref")
    drafts = s.pipeline.extract(item["text"], explicit=True, scope=(tenant, user))
    matched: list[int] = []
    if deduplicate:
        drafts, matched = _near_duplicates(s, tenant, user, _embedded(s, tenant, user, drafts))
    meta = fact_metadata(item.get("metadata"), session_id=item.get("session_id"), write_origin="explicit")
    labels = Labels(
        tags=tuple(_tags(item.get("tags", []))),
        importance=item.get("importance"),
        event_type=item.get("event_type", "fact"),
        actor=ACTOR,
    )
    with s.store.transaction():
        if ref is not None:
            # A concurrent request with the same ref may have landed since the caller's check.
            earlier = s.store.receipts.client_ref(tenant, user, ref)
            if earlier is not None:
                return _Added("skipped", earlier, "already_ingested")
        ids = s.pipeline.store_facts(
            tenant, user, drafts, source=item.get("source", "api"), metadata=meta, labels=labels
        )
        status, reason = ("created", None) if ids else ("skipped", "duplicate")
        if not ids:
            # Every fact already known: answer with the stored ones rather than pretend nothing is there.
            existing = [s.store.facts.find_by_text(tenant, user, text) for text in drafts.texts]
            ids = list(dict.fromkeys([*(row.id for row in existing if row is not None), *matched]))
        if ref is not None and ids:
            s.store.receipts.record_client_ref(tenant, user, ref, ids)
        if not ids:
            return _Added("skipped", [], "no_high_value_content")
        first = s.store.facts.get(tenant, user, [ids[0]])
    return _Added(status, ids, reason, first[0] if first else None)


def _replayed(s: Services, tenant: str, user: str, ref: str | None) -> list[int] | None:
    return None if ref is None else s.store.receipts.client_ref(tenant, user, ref)


def add_memory(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    body = call.body
    skipped: dict[str, Any] = {"status": "skipped", "reason": "no_high_value_content", "memory_ids": []}
    earlier = _replayed(s, tenant, user, body.get("client_ref"))
    if earlier is not None:
        return 200, {**skipped, "reason": "already_ingested", "memory_ids": earlier}
    if not admit(s, call, "adds"):
        return 200, {"status": "ok"}  # silent mode: nothing stored, nothing said about why
    added = _add(s, tenant, user, body, deduplicate=body.get("deduplicate", True))
    if added.first is None:
        return 200, {**skipped, "reason": added.reason, "memory_ids": added.ids}
    return 200, wire.memory(added.first)


def bulk_add_memories(s: Services, call: Call) -> tuple[int, Any]:
    items = call.body["items"]
    if not admit(s, call, "adds"):
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
        earlier = _replayed(s, tenant, user, item.get("client_ref"))
        added = (
            _Added("skipped", earlier, "already_ingested")
            if earlier is not None
            else _add(s, tenant, user, item, deduplicate=deduplicate)
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
def _query_filter(filters: dict[str, Any]) -> Callable[[Fact], bool] | None:
    """The ``filters`` of /memory/query as a test on a fact; None when nothing narrows."""
    tests: list[Callable[[Fact], bool]] = []
    if "memory_type" in filters:
        tests.append(lambda f, t=filters["memory_type"]: f.event_type == t)
    if "source" in filters:
        tests.append(lambda f, src=filters["source"]: f.source == src)
    if filters.get("tags"):
        tests.append(lambda f, tags=set(filters["tags"]): tags.issubset(f.tags))
    if "since" in filters:
        since = moment(filters["since"])
        tests.append(lambda f: f.created_at >= since)
    if "until" in filters:
        until = moment(filters["until"])
        tests.append(lambda f: f.created_at <= until)
    if not tests:
        return None
    return lambda fact: all(test(fact) for test in tests)


def search_memories(s: Services, call: Call) -> tuple[int, Any]:
    started = time.perf_counter()
    tenant, user = call.end_user()
    body = call.body
    ranked: list[tuple[Fact, float]] = []
    if admit(s, call, "reads"):
        k = body.get("k", DEFAULT_K)
        keep = _query_filter(body.get("filters") or {})
        ranked = s.search.search(
            tenant, user, body["query"], k if keep is None else max(k, FILTER_POOL), keep=keep
        )[:k]
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
    return 200, wire.memory(_visible(s, tenant, user, _path_id(call)))


def get_memory_history(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    memory_id = _path_id(call)
    rows, total = s.store.facts.revisions(
        tenant, user, memory_id, call.query.get("limit", 100), call.query.get("offset", 0)
    )
    if total == 0:
        raise _not_visible(memory_id)
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


def export_user_number(tenant: str, user: str) -> int:
    """A stable positive number for (tenant, end user): the export's integer ``user_id``."""
    digest = hashlib.blake2b(f"{tenant}\0{user}".encode(), digest_size=8).digest()
    return (int.from_bytes(digest[:7], "big") >> 4) or 1


def export_memories(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    facts = s.store.facts.page(tenant, user, 0, 0)[0] if admit(s, call, "reads") else []
    return 200, {
        "user_id": export_user_number(tenant, user),
        "memories": [wire.memory(fact) for fact in facts],
        "generated_at": wire.timestamp(s.store.now()),
    }


# ---- edit -----------------------------------------------------------------------------------
def _edits(body: dict[str, Any], current: Fact, loc: list[str | int]) -> dict[str, Any]:
    """The stored values an edit sets: ``tags`` without repeats, ``metadata`` merged into the
    stored object (null removes a key; the server's own keys stay as they are)."""
    if "text" in body:
        raise invalid(
            [*loc, "text"],
            "A memory's text is not editable. Store the new text with POST /memory/add and forget the "
            "old memory with DELETE /memory/forget.",
            "value_error",
        )
    fields = {name: body[name] for name in EDITABLE_FIELDS if name in body}
    if not fields:
        raise invalid(loc, f"Name at least one field to change: {', '.join(EDITABLE_FIELDS)}.", "missing")
    if "tags" in fields:
        fields["tags"] = _tags(fields["tags"])
    if "metadata" in fields:
        merged = dict(current.metadata)
        for key, value in fields["metadata"].items():
            if key in RESERVED_KEYS:
                continue
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        if len(merged) > MAX_METADATA_KEYS or json_size(merged) > MAX_METADATA_BYTES:
            raise invalid(
                [*loc, "metadata"],
                f"The merged metadata would exceed {MAX_METADATA_KEYS} keys or {MAX_METADATA_BYTES} bytes "
                "as JSON; remove keys (set them to null) before adding more.",
                "too_long",
            )
        fields["metadata"] = merged
    return fields


def update_memory(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    memory_id = _path_id(call)
    with s.store.transaction():
        current = _visible(s, tenant, user, memory_id)
        updated = s.store.facts.update(
            tenant, user, memory_id, _edits(call.body, current, ["body"]), actor=ACTOR
        )
    if updated is None:
        raise _not_visible(memory_id)
    return 200, wire.memory(updated[0])


def batch_update_memories(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    items = call.body["items"]
    seen: dict[int, int] = {}
    for index, item in enumerate(items):
        if item["memory_id"] in seen:
            # Two edits of one memory in one batch conflict (which one wins?): a 409, not a guess.
            raise ApiError(
                409,
                f"Conflicting edits: memory_id {item['memory_id']} is both item {seen[item['memory_id']]} and "
                f"item {index}; list each memory once (merge its edits into one item).",
            )
        seen[item["memory_id"]] = index
    results = []
    with s.store.transaction():  # every item or none
        for index, item in enumerate(items):
            memory_id = item["memory_id"]
            current = s.store.facts.get(tenant, user, [memory_id])
            updated = (
                s.store.facts.update(
                    tenant, user, memory_id, _edits(item, current[0], ["body", "items", index]), actor=ACTOR
                )
                if current
                else None
            )
            results.append(
                {
                    "index": index,
                    "memory_id": memory_id,
                    "status": "not_found" if updated is None else "updated",
                    "changed_fields": [] if updated is None else updated[1],
                }
            )
    counts = Counter(r["status"] for r in results)
    return 207, {
        "total": len(items),
        "updated": counts["updated"],
        "not_found": counts["not_found"],
        "results": results,
    }


# ---- feedback -------------------------------------------------------------------------------
@dataclass
class _Trend:
    signals: list[str] = field(default_factory=list)

    def body(self) -> dict[str, Any]:
        recent = self.signals[-RECENT_SIGNALS:]
        up = sum(signal in RISING for signal in recent)
        down = sum(signal in FALLING for signal in recent)
        momentum = "rising" if up > down else "falling" if down > up else "neutral"
        return {
            "momentum": momentum,
            "consistency": round(max(up, down) / len(recent), 6) if recent else 0.0,
            "trend_multiplier": round(1.0 + 0.1 * (up - down) / len(recent), 6) if recent else 1.0,
            "recent_count": len(recent),
        }


def give_memory_feedback(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    memory_id = _path_id(call)
    signal = call.body["signal"]
    with s.store.transaction():
        current = _visible(s, tenant, user, memory_id)
        before = NEUTRAL_IMPORTANCE if current.importance is None else current.importance
        after = round(min(max(before + SIGNAL_STEP[signal], IMPORTANCE_FLOOR), IMPORTANCE_CEILING), 6)
        s.store.facts.add_feedback(tenant, user, memory_id, signal, call.body.get("comment"))
        if after != current.importance:
            s.store.facts.update(tenant, user, memory_id, {"importance": after}, actor=ACTOR)
        signals = [f.signal for f in s.store.facts.feedback(tenant, user, memory_id)]
    return 200, {
        "memory_id": memory_id,
        "signal": signal,
        "importance_before": before,
        "importance_after": after,
        "adjustment": round(after - before, 6),
        "influenced_ranking": after != before,
        "summary": {
            "total_signals": len(signals),
            "signal_counts": dict(Counter(signals)),
            "trend": _Trend(signals).body(),
        },
    }


# ---- forget ---------------------------------------------------------------------------------
def _forget_filter(filters: dict[str, Any]) -> FactFilter:
    where = FactFilter(
        source=filters.get("source"),
        event_type=filters.get("event_type"),
        tags=tuple(_tags(filters.get("tags", []))),
        before=moment(filters["before"]) if "before" in filters else None,
        after=moment(filters["after"]) if "after" in filters else None,
    )
    if where.empty:
        raise invalid(
            ["body", "filters"],
            "An empty filter would delete every memory; name at least one of source, event_type, tags, "
            'before, after (to clear everything, use a wide one such as {"before": "<now>"}).',
            "missing",
        )
    return where


def forget_memories(s: Services, call: Call) -> tuple[int, Any]:
    tenant, user = call.end_user()
    body = call.body
    dry_run = body.get("dry_run", False)
    deleted: list[int] = []
    with s.store.transaction():
        if "memory_ids" in body:
            ids = [n for n in (wire.id_number(v) for v in body["memory_ids"]) if n is not None]
        else:
            ids = s.store.facts.select(tenant, user, _forget_filter(body["filters"]))
        for start in range(0, len(ids), DELETE_SLICE):
            deleted += s.store.facts.delete(tenant, user, ids[start : start + DELETE_SLICE], dry_run=dry_run)
    return 200, sorted(set(deleted))


HANDLERS: dict[str, Handler] = {
    fn.__name__: fn
    for fn in (
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
}

__all__ = ["HANDLERS", "export_user_number", "moment"]
