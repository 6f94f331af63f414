"""Array lookups the index and the ranking share: where ids sit in an array of ids, and each
row's best dot product with one query vector or several."""

from __future__ import annotations

import numpy as np

__all__ = ["best_dot", "in_sorted", "locate"]


def best_dot(matrix: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """Each row's best dot product over one query vector or several (rows of ``queries``)."""
    if queries.ndim == 1:
        return np.asarray(matrix @ queries)
    scores = np.asarray(matrix @ queries.T)
    # Column by column: numpy's max(axis=1) over a (n, 2) array runs a slow per-row loop
    # (4.8 ms at 100k rows against 0.1 ms for this).
    best: np.ndarray = scores[:, 0].copy()
    for column in range(1, scores.shape[1]):
        np.maximum(best, scores[:, column], out=best)
    return best


def in_sorted(ordered: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of ``targets`` in the ascending ``ordered`` and which of them were found."""
    if len(ordered) == 0 or len(targets) == 0:
        return np.zeros(len(targets), dtype=np.int64), np.zeros(len(targets), dtype=bool)
    at = np.minimum(np.searchsorted(ordered, targets), len(ordered) - 1)
    return at, ordered[at] == targets


def locate(ids: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of ``targets`` in ``ids`` (any order) and which of them were found."""
    if len(ids) < 2 or bool((ids[1:] > ids[:-1]).all()):
        return in_sorted(ids, targets)  # already in order: no sort (~3 ms for 100k ids)
    order = np.argsort(ids, kind="stable")
    at, found = in_sorted(ids[order], targets)
    return order[at], found
