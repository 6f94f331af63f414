"""Per-user state records (namespaced key/value items): put (optionally extracting facts from
the text, or replacing the facts extracted before), get, list, search, namespaces, delete."""

from __future__ import annotations

import json
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

    def put(
        self,
        tenant: str,
        user: str,
        *,
        source: str,
        namespace: list[str],
        key: str,
        value: Any,
        text: str,
        index: bool,
        extract: bool,
        replace_derived_facts: bool,
        as_fact: bool = False,
        metadata: dict[str, Any] | None,
    ) -> Put:
        record = NewState(
            source=source,
            namespace=namespace,
            key=key,
            value=value,
            text=text,
            indexed=index,
            vector=self.pipeline.embed([text])[0] if index else None,
        )
        if as_fact and text.strip():
            # A memory distilled elsewhere (agno's model): one fact, as written, and read as the
            # record is (the record's vector is the fact's when their texts are one).
            known = {text: record.vector} if record.vector is not None else None
            drafts: Drafts | None = self.pipeline.drafts(
                [nfc(text).strip()], scope=(tenant, user), known=known
            )
        else:
            drafts = self.pipeline.extract(text, scope=(tenant, user)) if extract else None

        def store() -> Put:
            deleted: list[int] = []
            row, created = self.store.state.put(tenant, user, record)
            if not created and replace_derived_facts:
                deleted = self.store.facts.delete(
                    tenant, user, self.store.facts.derived(tenant, user, "state", [row.id])
                )
            if drafts is not None:
                meta = fact_metadata(
                    metadata,
                    write_origin="state-fact" if as_fact else "state-extraction",
                    turn_role="user",
                    distilled_from=f"h_{row.id}",
                )
                self.pipeline.store_facts(
                    tenant, user, drafts, source=source, metadata=meta, origin=("state", row.id)
                )
            return Put(row, created, drafts is not None, deleted)

        return self.store.atomic(store)

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
