"""Per-user state records (namespaced key/value items): put (optionally extracting facts from
the text, or replacing the facts extracted before), get, list, search, namespaces, delete."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..domain import NewState, StateRow
from ..language.scripts import nfc
from ..retrieval import STATE_FLOOR, STATE_RELATIVE, FactSearch, cosine_rank
from ..storage import Storage
from .derived import delete_records
from .pipeline import Drafts, Pipeline, fact_metadata


def state_text(body: dict[str, Any]) -> str:
    """What a record says in words: its ``text``, else its value as JSON."""
    return body["text"] if "text" in body else json.dumps(body["value"], ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class PutRequest:
    """One record to store (a ``/v1/state/put`` body, parsed)."""

    user: str
    source: str
    namespace: list[str]
    key: str
    value: Any
    text: str
    index: bool = True
    extract: bool = False
    replace_derived_facts: bool = False
    as_fact: bool = False
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class Put:
    row: StateRow
    created: bool
    extracted: bool
    deleted_fact_ids: list[int]


class State:
    def __init__(self, store: Storage, pipeline: Pipeline, search: FactSearch) -> None:
        self.store, self.pipeline, self.fact_search = store, pipeline, search

    def get(self, tenant: str, user: str, source: str, namespace: list[str], key: str) -> StateRow | None:
        return self.store.state.get(tenant, user, source, namespace, key)

    def put(self, tenant: str, user: str, **request: Any) -> Put:
        """One record (``request``: the fields of `PutRequest` but ``user``)."""
        return self.put_many(tenant, [PutRequest(user=user, **request)])[0]

    def put_many(self, tenant: str, requests: Sequence[PutRequest]) -> list[Put]:
        """Store every record of ``requests`` in one unit of work (all or none), their texts
        encoded in one model run; the answers in the given order."""
        indexed = [r.text for r in requests if r.index]
        vectors = iter(self.pipeline.embed(indexed) if indexed else [])
        prepared = []
        for r in requests:
            record = NewState(
                source=r.source,
                namespace=r.namespace,
                key=r.key,
                value=r.value,
                text=r.text,
                indexed=r.index,
                vector=next(vectors) if r.index else None,
            )
            prepared.append((r, record, self._drafts(tenant, r, record)))

        def store() -> list[Put]:
            return [self._store(tenant, r, record, drafts) for r, record, drafts in prepared]

        return self.store.atomic(store)

    def _drafts(self, tenant: str, r: PutRequest, record: NewState) -> Drafts | None:
        if r.as_fact and r.text.strip():
            # A memory distilled elsewhere (agno's model): one fact, as written, and read as the
            # record is (the record's vector is the fact's when their texts are one).
            known = {r.text: record.vector} if record.vector is not None else None
            return self.pipeline.drafts([nfc(r.text).strip()], scope=(tenant, r.user), known=known)
        return self.pipeline.extract(r.text, scope=(tenant, r.user)) if r.extract else None

    def _store(self, tenant: str, r: PutRequest, record: NewState, drafts: Drafts | None) -> Put:
        """(Inside a unit of work) one record, the facts it replaces and the facts it gives."""
        deleted: list[int] = []
        row, created = self.store.state.put(tenant, r.user, record)
        if not created and r.replace_derived_facts:
            deleted = self.store.facts.delete(
                tenant, r.user, self.store.facts.derived(tenant, r.user, "state", [row.id])
            )
        if drafts is not None:
            meta = fact_metadata(
                r.metadata,
                write_origin="state-fact" if r.as_fact else "state-extraction",
                turn_role="user",
                distilled_from=f"h_{row.id}",
            )
            self.pipeline.store_facts(
                tenant, r.user, drafts, source=r.source, metadata=meta, origin=("state", row.id)
            )
        return Put(row, created, drafts is not None, deleted)

    def rows(self, tenant: str, user: str, source: str, prefix: list[str] | None) -> list[StateRow]:
        """Every record under ``prefix``, most recently updated first."""
        return self.store.state.rows(tenant, user, source=source, prefix=prefix)

    def search(
        self, tenant: str, user: str, source: str, prefix: list[str] | None, query: str
    ) -> list[tuple[float, StateRow]]:
        """The indexed records under ``prefix`` relevant to ``query``, best first."""
        rows = self.store.state.rows(tenant, user, source=source, prefix=prefix, with_vectors=True)
        return cosine_rank(
            self.pipeline.embedder,
            query,
            rows,
            floor=STATE_FLOOR if self.fact_search.dense else self.fact_search.noise_floor,
            relative=STATE_RELATIVE if self.fact_search.dense else 0.0,
        )

    def namespaces(
        self, tenant: str, user: str, source: str, prefix: list[str] | None, depth: int | None
    ) -> list[list[str]]:
        """The namespaces holding records under ``prefix``, sorted; with ``depth``, cut to that many
        segments (each cut once)."""
        found = self.store.state.namespaces(tenant, user, source=source, prefix=prefix)
        if depth is None:
            return found
        # Cutting keeps the order (a sorted list's prefixes are sorted); equal cuts are adjacent.
        cut: list[list[str]] = []
        for namespace in found:
            head = namespace[:depth]
            if not cut or cut[-1] != head:
                cut.append(head)
        return cut

    def delete(
        self,
        tenant: str,
        user: str,
        source: str,
        namespace: list[str],
        keys: list[str] | None,
        *,
        with_facts: bool,
    ) -> tuple[list[int], list[int]]:
        """(record ids deleted, ids of the facts extracted from them deleted with them)."""

        def delete() -> tuple[list[int], list[int]]:
            ids = self.store.state.ids(tenant, user, source, namespace, keys)
            return delete_records(
                self.store, tenant, user, "state", ids, self.store.state.delete, with_facts=with_facts
            )

        return self.store.atomic(delete)
