"""Deleting history turns or state records, and with them, when asked, the facts extracted from them."""

from __future__ import annotations

from collections.abc import Callable

from ..storage import Storage

Delete = Callable[[str, str, list[int]], list[int]]


def delete_records(
    store: Storage, tenant: str, user: str, origin: str, ids: list[int], delete: Delete, *, with_facts: bool
) -> tuple[list[int], list[int]]:
    """(record ids deleted, fact ids deleted), inside the caller's unit of work. ``origin`` is
    ``history`` or ``state``: the kind of record the facts were extracted from."""
    fact_ids: list[int] = []
    if with_facts:
        fact_ids = store.facts.delete(tenant, user, store.facts.derived(tenant, user, origin, ids))
    return delete(tenant, user, ids), fact_ids
