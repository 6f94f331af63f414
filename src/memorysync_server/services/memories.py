"""One end user's memories: explicit writes (with near-duplicate detection), reads, edits, forgetting.

Writes do their extraction and embedding first, then run one unit of work (``Storage.atomic``,
retried when the engine aborts it). An edit reads the memory through ``FactStore.lock``, so what
it computes from the stored values cannot be overwritten by a concurrent edit; edits record
revisions in the same unit of work as the change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..domain import EDITABLE_FIELDS, Fact, FactFilter, Revision
from ..language.words import content_words, stem
from ..retrieval import FactSearch
from ..storage import Storage
from .errors import Invalid, memory_not_visible
from .limits import MAX_METADATA_BYTES, MAX_METADATA_KEYS, json_size
from .pipeline import RESERVED_KEYS, Drafts, Labels, Pipeline, fact_metadata

# Who a caller-made change is recorded as (the server's own changes have no actor).
ACTOR = "api"
# A restatement of a stored fact (see _near_duplicates) is at least this close by cosine.
NEAR_DUPLICATE = 0.8
# Deletes go to the storage in slices (SQLite caps the parameters of a statement).
DELETE_SLICE = 500
# Larger than any id: "older than everything" for a nearest-neighbour look-up.
_NO_LIMIT = 2**63 - 1


def unique(values: list[str]) -> list[str]:
    """Tags as stored: each once, in the order first given."""
    return list(dict.fromkeys(values))


@dataclass
class Added:
    status: str  # created | skipped (then ``reason`` says why; a duplicate has ``first``)
    ids: list[int]
    reason: str | None = None
    first: Fact | None = None


@dataclass(frozen=True)
class Edited:
    """One item of a batch edit: the fields that changed, or None when the memory is not visible."""

    memory_id: int
    changed_fields: list[str] | None


def _words(text: str) -> frozenset[str]:
    return frozenset(stem(word) for word in content_words(text))


class Memories:
    def __init__(self, store: Storage, pipeline: Pipeline, search: FactSearch) -> None:
        self.store, self.pipeline, self.search = store, pipeline, search

    # ---- reads ------------------------------------------------------------------------------
    def get(self, tenant: str, user: str, memory_id: int) -> Fact:
        found = self.store.facts.get(tenant, user, [memory_id])
        if not found:
            raise memory_not_visible(memory_id)
        return found[0]

    def page(self, tenant: str, user: str, limit: int = 0, offset: int = 0) -> tuple[list[Fact], int]:
        """Newest first; ``limit`` 0 means all."""
        return self.store.facts.page(tenant, user, limit, offset)

    def revisions(
        self, tenant: str, user: str, memory_id: int, limit: int, offset: int
    ) -> tuple[list[Revision], int]:
        rows, total = self.store.facts.revisions(tenant, user, memory_id, limit, offset)
        if total == 0:
            raise memory_not_visible(memory_id)
        return rows, total

    def count(self, tenant: str) -> int:
        return self.store.facts.count(tenant)

    # ---- explicit writes --------------------------------------------------------------------
    def replayed(self, tenant: str, user: str, ref: str | None) -> list[int] | None:
        """The ids an earlier write with this ``client_ref`` stored, or None."""
        return None if ref is None else self.store.receipts.client_ref(tenant, user, ref)

    def add(self, tenant: str, user: str, item: dict[str, Any], *, deduplicate: bool) -> Added:
        """One explicit write (an add, or one item of a bulk add), after the quota check."""
        ref = item.get("client_ref")
        drafts = self.pipeline.extract(item["text"], explicit=True, scope=(tenant, user))
        matched: list[int] = []
        if deduplicate:
            drafts, matched = self._near_duplicates(tenant, user, self._embedded(tenant, user, drafts))
        meta = fact_metadata(item.get("metadata"), session_id=item.get("session_id"), write_origin="explicit")
        labels = Labels(
            tags=tuple(unique(item.get("tags", []))),
            importance=item.get("importance"),
            event_type=item.get("event_type", "fact"),
            actor=ACTOR,
        )

        def store() -> Added:
            if ref is not None:
                # A concurrent request with the same ref may have landed since the caller's check.
                earlier = self.store.receipts.client_ref(tenant, user, ref)
                if earlier is not None:
                    return Added("skipped", earlier, "already_ingested")
            ids = self.pipeline.store_facts(
                tenant, user, drafts, source=item.get("source", "api"), metadata=meta, labels=labels
            )
            status, reason = ("created", None) if ids else ("skipped", "duplicate")
            if not ids:
                # Every fact already known: answer with the stored ones rather than pretend nothing is there.
                existing = [self.store.facts.find_by_text(tenant, user, text) for text in drafts.texts]
                ids = list(dict.fromkeys([*(row.id for row in existing if row is not None), *matched]))
            if ref is not None and ids:
                self.store.receipts.record_client_ref(tenant, user, ref, ids)
            if not ids:
                return Added("skipped", [], "no_high_value_content")
            first = self.store.facts.get(tenant, user, [ids[0]])
            return Added(status, ids, reason, first[0] if first else None)

        return self.store.atomic(store)

    def _near_duplicates(self, tenant: str, user: str, drafts: Drafts) -> tuple[Drafts, list[int]]:
        """``drafts`` without the facts that restate a stored fact, and the ids of those stored facts.
        A restatement has the same content words (stop words, order and word endings aside: "User
        plays cello" restates "User plays the cello") and a close vector; a different number or
        name makes a different fact however close the vectors are."""
        if not drafts.texts:
            return drafts, []
        keep, matched = [], []
        for i, (text, vector) in enumerate(zip(drafts.texts, drafts.vectors, strict=True)):
            nearest = self.search.nearest(tenant, user, vector, before=_NO_LIMIT)
            same = None
            if nearest is not None and nearest[1] >= NEAR_DUPLICATE:
                stored = self.store.facts.get(tenant, user, [nearest[0]])
                if stored and _words(stored[0].text) == _words(text):
                    same = stored[0].id
            if same is None:
                keep.append(i)
            else:
                matched.append(same)
        return Drafts([drafts.texts[i] for i in keep], [drafts.vectors[i] for i in keep]), matched

    def _embedded(self, tenant: str, user: str, drafts: Drafts) -> Drafts:
        """``drafts`` with every vector computed now (a restatement is found by its vector), the
        user's facts still waiting for the background embedder embedded first, in the same batch."""
        pending = [i for i, vector in enumerate(drafts.vectors) if len(vector) == 0]
        if not pending:
            return drafts
        texts = [drafts.texts[i] for i in pending]
        backfill = self.pipeline.backfill
        vectors = backfill.flush(tenant, user, also=texts) if backfill is not None else None
        if vectors is None or len(vectors) != len(texts):
            vectors = self.pipeline.embed(texts)
        out = list(drafts.vectors)
        for i, vector in zip(pending, vectors, strict=True):
            out[i] = vector
        return Drafts(drafts.texts, out)

    # ---- edits ------------------------------------------------------------------------------
    def edit(
        self, tenant: str, user: str, memory_id: int, change: dict[str, Any], loc: list[str | int]
    ) -> Fact:
        """Apply one edit (``change``: some of EDITABLE_FIELDS) to the memory as it is when locked."""

        def edit() -> tuple[Fact, list[str]] | None:
            current = self.store.facts.lock(tenant, user, [memory_id])
            if not current:
                raise memory_not_visible(memory_id)
            return self.store.facts.update(
                tenant, user, memory_id, _edits(change, current[0], loc), actor=ACTOR
            )

        updated = self.store.atomic(edit)
        if updated is None:
            raise memory_not_visible(memory_id)
        return updated[0]

    def edit_many(
        self, tenant: str, user: str, items: list[dict[str, Any]], loc: list[str | int]
    ) -> list[Edited]:
        """Each item (``memory_id`` plus its edit) applied, all in one unit of work or none; the
        caller has checked that no memory is listed twice."""

        def edit() -> list[Edited]:
            # Every memory locked up front, in id order: two batches never wait on each other.
            current = {f.id: f for f in self.store.facts.lock(tenant, user, [i["memory_id"] for i in items])}
            done = []
            for index, item in enumerate(items):
                memory_id = item["memory_id"]
                updated = (
                    self.store.facts.update(
                        tenant, user, memory_id, _edits(item, current[memory_id], [*loc, index]), actor=ACTOR
                    )
                    if memory_id in current
                    else None
                )
                done.append(Edited(memory_id, None if updated is None else updated[1]))
            return done

        return self.store.atomic(edit)

    # ---- forgetting -------------------------------------------------------------------------
    def forget(
        self,
        tenant: str,
        user: str,
        *,
        ids: list[int] | None = None,
        where: FactFilter | None = None,
        dry_run: bool = False,
    ) -> list[int]:
        """Delete the memories among ``ids`` (or matching ``where``, which must narrow); the ids that
        existed (with ``dry_run``: would be deleted), ascending, each reported by one forget only."""
        if ids is None and (where is None or where.empty):
            raise Invalid(
                ["body", "filters"],
                "An empty filter would delete every memory; name at least one of source, event_type, "
                'tags, before, after (to clear everything, use a wide one such as {"before": "<now>"}).',
                "missing",
            )

        def forget() -> list[int]:
            chosen = sorted(set(ids)) if ids is not None else self.store.facts.select(tenant, user, where)  # type: ignore[arg-type]
            deleted: list[int] = []
            for start in range(0, len(chosen), DELETE_SLICE):
                deleted += self.store.facts.delete(
                    tenant, user, chosen[start : start + DELETE_SLICE], dry_run=dry_run
                )
            return deleted

        return sorted(set(self.store.atomic(forget)))


def _edits(body: dict[str, Any], current: Fact, loc: list[str | int]) -> dict[str, Any]:
    """The stored values an edit sets: ``tags`` without repeats, ``metadata`` merged into the
    stored object (null removes a key; the server's own keys stay as they are)."""
    if "text" in body:
        raise Invalid(
            [*loc, "text"],
            "A memory's text is not editable. Store the new text with POST /memory/add and forget the "
            "old memory with DELETE /memory/forget.",
            "value_error",
        )
    fields = {name: body[name] for name in EDITABLE_FIELDS if name in body}
    if not fields:
        raise Invalid(loc, f"Name at least one field to change: {', '.join(EDITABLE_FIELDS)}.", "missing")
    if "tags" in fields:
        fields["tags"] = unique(fields["tags"])
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
            raise Invalid(
                [*loc, "metadata"],
                f"The merged metadata would exceed {MAX_METADATA_KEYS} keys or {MAX_METADATA_BYTES} bytes "
                "as JSON; remove keys (set them to null) before adding more.",
                "too_long",
            )
        fields["metadata"] = merged
    return fields
