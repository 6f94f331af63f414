"""The fact most like a new one: supersede's likeness check, run inside a write."""

from __future__ import annotations

import numpy as np

from ..domain import KEPT_TURN
from ..storage import Storage
from .index import COARSE_CANDIDATES, TURN
from .index_cache import IndexCache

__all__ = ["NEAREST_POOL", "nearest"]

# How many of the most similar rows ``nearest`` looks through for the most similar fact (kept turns
# among them are skipped).
NEAREST_POOL = 8


def nearest(
    store: Storage, indexes: IndexCache, tenant: str, user_id: str, vector: np.ndarray, *, before: int
) -> tuple[int, float] | None:
    """(id, likeness) of the fact most similar to ``vector`` among the user's facts older than
    ``before``. Runs inside a write, so it never fills the cache (the write is not committed yet)."""
    index = indexes.cached(tenant, user_id)
    if index is not None:
        ids, matrix = index.ids, index.matrix
        # A large user is scanned as a search scans it: the coarse projection picks the rows
        # worth scoring exactly (every row of 100k facts cost 14-27 ms per stated change).
        rows = index.candidates(vector, COARSE_CANDIDATES) if matrix.shape[1] == vector.shape[0] else None
        if rows is not None:
            ids, matrix = ids[rows], matrix[rows]
    else:
        rows = None
        ids, matrix = store.facts.vectors(tenant, user_id, dim=indexes.dim)
    indexes.stages["nearest (exact)" if rows is None else "nearest (coarse + exact rerank)"] += 1
    older = ids < before
    if not older.any() or matrix.shape[1] != vector.shape[0]:
        return None
    scores = np.where(older, matrix @ vector, -np.inf)  # scores first: no copy of the rows
    # A kept turn is what was said, not a fact a newer one can replace: the nearest fact is
    # looked for among the best few rows (the turn a fact came from is usually the nearest).
    count = min(NEAREST_POOL, len(ids))
    near = np.argpartition(-scores, count - 1)[:count] if count < len(ids) else np.arange(len(ids))
    best = [int(i) for i in near[np.argsort(-scores[near], kind="stable")] if np.isfinite(scores[i])]
    if index is not None:
        # The index knows which rows are kept turns: only the best other row is read (to
        # see it still exists in this write), not all eight.
        kinds = index.kinds if rows is None else index.kinds[rows]
        best = [i for i in best if kinds[i] != TURN]
        for i in best:
            found = store.facts.get(tenant, user_id, [int(ids[i])])
            if found and found[0].event_type != KEPT_TURN:
                return int(ids[i]), float(scores[i])
        return None
    stored = {f.id: f.event_type for f in store.facts.get(tenant, user_id, (int(ids[i]) for i in best))}
    for i in best:
        if stored.get(int(ids[i]), KEPT_TURN) != KEPT_TURN:
            return int(ids[i]), float(scores[i])
    return None
