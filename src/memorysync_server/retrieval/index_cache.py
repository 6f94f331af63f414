"""Each searched user's ``UserIndex``, kept in memory until a write, and kept current by it.

A user's index is read from the store once (``FactStore.index_rows``: one statement for the
vectors, the turn marks, the superseded facts and the importances), then every change the store
announces (``FactsChange``) is applied to it in place of a re-read: a 100k-row reload costs ~1 s,
appending one row costs a copy. The cache is bounded by rows, not users.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from typing import TypeVar

import numpy as np

from ..domain import FactsChange
from ..storage import Storage
from .backfill import Backfill
from .index import UserIndex
from .turns import marks_of

__all__ = ["IndexCache"]

V = TypeVar("V")


class IndexCache:
    """The indexes of the most recently searched users, at most ``max_rows`` rows in all (one
    user larger than that is still kept, alone). ``dense`` indexes keep their rows contiguous
    (sentence vectors use every column); hashed ones column-major (a prompt reads few columns)."""

    def __init__(
        self,
        store: Storage,
        dim: int,
        *,
        dense: bool,
        max_rows: int,
        stages: Counter[str],
    ) -> None:
        self.store, self.dim, self.dense, self.max_rows, self.stages = store, dim, dense, max_rows, stages
        # Gives the facts whose vector has another width this embedder's (an older release,
        # another search mode): the read path reads, the backfill writes.
        self.backfill: Backfill | None = None
        self._cache: OrderedDict[tuple[str, str], UserIndex] = OrderedDict()
        self._generation: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def sizes(self) -> tuple[int, int]:
        """(users, rows) held now."""
        with self._lock:
            return len(self._cache), sum(len(index.ids) for index in self._cache.values())

    def cached(self, tenant: str, user_id: str) -> UserIndex | None:
        """The user's index if it is in memory (never reads the store)."""
        with self._lock:
            return self._cache.get((tenant, user_id))

    def get(self, tenant: str, user_id: str) -> UserIndex:
        """The user's index: the cached one, or read from the store (and cached unless a write
        landed during the read)."""
        key = (tenant, user_id)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
            generation = self._generation.get(key, 0)
        self.stages["load"] += 1
        rows = self.store.facts.index_rows(tenant, user_id, self.dim)
        if rows.other_vectors and self.backfill is not None:
            # Some facts carry another embedder's vectors: the backfill gives them ours, then read again.
            self.backfill.refresh(tenant, user_id, rows.other_vectors)
            with self._lock:
                generation = self._generation.get(key, 0)
            rows = self.store.facts.index_rows(tenant, user_id, self.dim)
        # Hashed prompts touch few features: column-major lets the lexical mode read only those
        # columns. Dense sentence vectors use every column, so rows stay contiguous.
        matrix = np.ascontiguousarray(rows.matrix) if self.dense else np.asfortranarray(rows.matrix)
        index = UserIndex(
            rows.ids, matrix, rows.superseded, self.dense, rows.importance, marks_of(rows.ids, rows.marks)
        )
        with self._lock:
            # A write that landed while we read makes this copy stale: use it once, do not cache it.
            if self._generation.get(key, 0) == generation:
                self._cache[key] = index
                # Bound memory by rows, not users: one user with 100k facts weighs as much as
                # a thousand small ones. The least recently searched users are dropped first.
                while len(self._cache) > 1 and sum(len(v.ids) for v in self._cache.values()) > self.max_rows:
                    self._cache.popitem(last=False)
        return index

    def changed(self, change: FactsChange) -> None:
        """Apply a committed change to the cached index (a storage listener:
        ``Storage.on_facts_changed``)."""
        key = (change.tenant, change.user_id)
        with self._lock:
            self._generation[key] = self._generation.get(key, 0) + 1
            index = self._cache.pop(key, None)
            if index is None or change.unknown:
                return
            if change.removed_ids:
                index = index.without(np.asarray(change.removed_ids, dtype=np.int64))
            if change.added_ids:
                added = np.asarray(change.added_vectors, dtype=np.float32)
                if added.ndim != 2 or added.shape[1] not in (0, self.dim):
                    return
                # Facts stored without a vector yet (width 0) join when their vectors are written.
                if added.shape[1]:
                    ids = np.asarray(change.added_ids, dtype=np.int64)
                    marks = None if change.added_marks is None else marks_of(ids, change.added_marks)
                    index = index.appended(ids, added, marks)
            if change.superseded:
                index.superseded = _changed(index.superseded, change.superseded)
            if change.importance:
                index.importance = _changed(index.importance, change.importance)
            if change.edited_ids:
                index = index.forget_marks(np.asarray(change.edited_ids, dtype=np.int64))
            self._cache[key] = index


def _changed(mapping: dict[int, V], changes: dict[int, V | None]) -> dict[int, V]:
    """A new ``mapping`` with ``changes`` applied (None removes the id). A new object, never the
    old one edited: caches keyed by the mapping's identity then see the change."""
    out = dict(mapping)
    for fact_id, value in changes.items():
        if value is None:
            out.pop(fact_id, None)
        else:
            out[fact_id] = value
    return out
