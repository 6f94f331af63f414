"""One user's facts in memory, and the scan that finds the rows worth scoring exactly.

Users with more than EXACT_SCAN_ROWS facts are scanned in two stages (a 64-wide projection, then
exact scores). The projection is kept as 8-bit integers (``Projection``) when SimSIMD is there to
scan it: 6.4 MB at 100k facts instead of 25.6, which the prompt's encode has pushed out of the
CPU's cache; the scan then takes ~0.65 instead of ~1.35 ms.
"""

from __future__ import annotations

import threading
from functools import partial

import numpy as np

from .arrays import in_sorted
from .beside import Beside

try:  # the server extra installs it; without it the projection stays float32
    import simsimd
except ImportError:  # pragma: no cover
    simsimd = None  # type: ignore[assignment]

__all__ = [
    "COARSE_CANDIDATES",
    "COARSE_DIMS",
    "EXACT_SCAN_ROWS",
    "FACT",
    "SPLIT_ROWS",
    "TURN",
    "UNKNOWN",
    "UserIndex",
    "scan",
    "unknown_marks",
]

# Users with more facts than this are scanned in two stages: a COARSE_DIMS-wide projection picks
# COARSE_CANDIDATES rows, whose full vectors are then scored exactly.
EXACT_SCAN_ROWS = 20_000
COARSE_DIMS = 64
COARSE_CANDIDATES = 400
# Scans of more rows than this run in two halves side by side (``scan``).
SPLIT_ROWS = 4096


def _grown(buffer: np.ndarray, used: int, rows: np.ndarray) -> np.ndarray:
    """``buffer`` with ``rows`` written after its first ``used`` rows, in place while capacity
    lasts (readers of older snapshots only look at rows they already had), else in a buffer of
    twice the size: appending one fact to 100k costs a row, not a 150 MB copy."""
    needed = used + len(rows)
    if needed > len(buffer):
        bigger = np.empty(
            (max(2 * needed, 1024), *buffer.shape[1:]),
            dtype=buffer.dtype,
            order="F"
            if buffer.ndim == 2 and buffer.flags.f_contiguous and not buffer.flags.c_contiguous
            else "C",
        )
        bigger[:used] = buffer[:used]
        buffer = bigger
    buffer[used:needed] = rows
    return buffer


class Projection:
    """How rows are projected for the coarse scan: onto ``basis``, then (when ``scale`` is set) to
    8-bit integers, each column by its own step, so the scan reads a quarter of the bytes."""

    # Room above the largest value the sample had, for rows appended later (beyond it they clip).
    HEADROOM = 1.25

    def __init__(self, basis: np.ndarray, scale: np.ndarray | None) -> None:
        self.basis, self.scale = basis, scale

    @classmethod
    def fitted(cls, basis: np.ndarray, projected: np.ndarray) -> Projection:
        if simsimd is None or len(projected) == 0:
            return cls(basis, None)
        largest = np.abs(projected).max(axis=0)
        return cls(basis, (np.maximum(largest, 1e-6) * cls.HEADROOM / 127).astype(np.float32))

    def rows(self, vectors: np.ndarray) -> np.ndarray:
        """The coarse rows of ``vectors``."""
        return self.encoded(vectors @ self.basis)

    def encoded(self, projected: np.ndarray) -> np.ndarray:
        projected = np.asarray(projected, dtype=np.float32)
        return projected if self.scale is None else _int8(projected / self.scale)

    def scores(self, coarse: np.ndarray, query: np.ndarray, beside: Beside | None) -> np.ndarray:
        """Each row's coarse score for ``query`` (in the projection's own units: only the order counts)."""
        projected = query @ self.basis
        if self.scale is None:
            return scan(coarse, projected, beside)
        # The query's 8-bit form carries the columns' steps, so the integer products rank as the
        # float ones would.
        weighted = projected * self.scale
        largest = float(np.abs(weighted).max())
        if largest == 0.0:
            return np.zeros(len(coarse), dtype=np.float32)
        assert simsimd is not None
        return np.asarray(
            simsimd.cdist(_int8(weighted * (127 / largest))[None, :], coarse, metric="dot")
        ).ravel()


def _int8(values: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.clip(np.rint(values), -127, 127).astype(np.int8)
    return out


class _CoarseBuild:
    """The coarse projection of a user's first ``rows`` vectors, computed on a background thread
    so the first search after a load does not wait for it (it scans exactly meanwhile)."""

    def __init__(self, matrix: np.ndarray) -> None:
        self.rows = len(matrix)
        self.projection: Projection | None = None
        self.coarse: np.ndarray | None = None
        self.done = threading.Event()
        threading.Thread(target=self._run, args=(matrix,), name="memorysync-coarse", daemon=True).start()

    def _run(self, matrix: np.ndarray) -> None:
        try:
            # PCA of a sample of this user's own vectors: the first COARSE_DIMS components keep
            # most of the variance, so a scan over n x 64 finds the few hundred candidates whose
            # exact scores are then computed.
            sample = matrix[:: max(1, len(matrix) // 4096)]
            centred = sample - sample.mean(axis=0)
            _, vectors = np.linalg.eigh(centred.T @ centred)
            basis = np.ascontiguousarray(vectors[:, ::-1][:, :COARSE_DIMS], dtype=np.float32)
            projected = matrix @ basis
            projection = Projection.fitted(basis, projected)
            self.coarse = projection.encoded(projected)
            self.projection = projection
        finally:
            self.done.set()


# A row's kind (``UserIndex.kinds``): a fact, a kept turn, or not known here (decode the fact).
FACT, TURN, UNKNOWN = 0, 1, -1


class UserIndex:
    """One user's facts in memory: ids (in id order unless some vectors came late), vectors, the
    coarse projection large users are scanned with first, which facts are superseded by which,
    and each row's turn and kind (``turns``, ``kinds``), so a search groups a turn with its facts
    before decoding any."""

    def __init__(
        self,
        ids: np.ndarray,
        matrix: np.ndarray,
        superseded: dict[int, int],
        dense: bool,
        importance: dict[int, float] | None = None,
        marks: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> None:
        self.size = len(ids)
        self.importance: dict[int, float] = importance or {}
        self._weights: tuple[dict[int, float], np.ndarray, np.ndarray] | None = None
        self._ids = ids
        self._matrix = matrix
        self._turns, self._kinds, self._days = marks if marks is not None else unknown_marks(len(ids))
        self._coarse: np.ndarray | None = None
        self.projection: Projection | None = None
        self._build: _CoarseBuild | None = None
        self._sorted: tuple[np.ndarray | None, np.ndarray] | None = None
        self._pairs: tuple[dict[int, int], np.ndarray, np.ndarray] | None = None
        self.superseded = superseded
        self.dense = dense
        self._start_build()

    def importance_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``importance`` (fact id -> importance, for the facts whose importance was ever set) as
        (fact ids, importances), built once per change, not per search."""
        source = self.importance
        cached = self._weights
        # Kept with the mapping they came from (a change assigns a new one), like the pairs below.
        if cached is None or cached[0] is not source:
            count = len(source)
            cached = self._weights = (
                source,
                np.fromiter(source.keys(), dtype=np.int64, count=count),
                np.fromiter(source.values(), dtype=np.float32, count=count),
            )
        return cached[1], cached[2]

    def superseded_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """``superseded`` as two arrays (older ids ascending, their superseders), built once per
        change instead of once per search."""
        source = self.superseded
        cached = self._pairs
        # Kept with the mapping they came from (a change assigns a new one), so a search racing
        # a change never keeps stale pairs.
        if cached is None or cached[0] is not source:
            old = np.fromiter(source.keys(), dtype=np.int64, count=len(source))
            new = np.fromiter(source.values(), dtype=np.int64, count=len(source))
            order = np.argsort(old)
            cached = self._pairs = (source, old[order], new[order])
        return cached[1], cached[2]

    def positions(self, fact_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Row positions of ``fact_ids`` and which of them this index holds (the ids' sort order
        is computed once per index, not per search)."""
        cached = self._sorted
        if cached is None:
            ids = self.ids
            if len(ids) < 2 or bool((ids[1:] > ids[:-1]).all()):
                # Rows are usually in id order already: sorting 100k ids would cost ~3 ms.
                cached = self._sorted = (None, ids)
            else:
                by_id: np.ndarray = np.argsort(ids, kind="stable")
                cached = self._sorted = (by_id, ids[by_id])
        order, ordered = cached
        at, found = in_sorted(ordered, fact_ids)
        return (at if order is None else np.asarray(order[at])), found

    def _start_build(self) -> None:
        if self.dense and self.size > EXACT_SCAN_ROWS and self._build is None and self.projection is None:
            self._build = _CoarseBuild(self.matrix)

    @property
    def ids(self) -> np.ndarray:
        return self._ids[: self.size]

    @property
    def matrix(self) -> np.ndarray:
        return self._matrix[: self.size]

    @property
    def turns(self) -> np.ndarray:
        """Each row's turn id (``turns.turn_id``); meaningful where ``kinds`` is not UNKNOWN."""
        return self._turns[: self.size]

    @property
    def kinds(self) -> np.ndarray:
        """Each row's kind: FACT, TURN (a kept turn) or UNKNOWN (edited since it was read, or
        announced without its mark)."""
        return self._kinds[: self.size]

    @property
    def days(self) -> np.ndarray:
        """Each row's day said (``domain.said_day``: a date ordinal, 0 where not known). An edit
        leaves it as it was: when a memory was said is not editable."""
        return self._days[: self.size]

    def forget_marks(self, fact_ids: np.ndarray) -> UserIndex:
        """A copy whose rows of ``fact_ids`` (edited: their kind or turn may have changed) are
        UNKNOWN, so searches decode them."""
        where, found = self.positions(fact_ids)
        index = self._copy()
        index._kinds = self.kinds.copy()
        index._kinds[where[found]] = UNKNOWN
        index._turns, index._days = self.turns, self.days
        return index

    @property
    def coarse(self) -> np.ndarray | None:
        build = self._build
        if (
            self._coarse is None
            and build is not None
            and build.done.is_set()
            and build.projection is not None
        ):
            # The background build finished: take it, projecting the rows appended since.
            assert build.coarse is not None
            self._coarse = _grown(build.coarse, build.rows, build.projection.rows(self.matrix[build.rows :]))
            self.projection = build.projection
        return None if self._coarse is None else self._coarse[: self.size]

    def _copy(self) -> UserIndex:
        index = UserIndex.__new__(UserIndex)
        index.__dict__.update(self.__dict__)
        index._sorted = None  # the copy's rows change
        return index

    def appended(
        self,
        ids: np.ndarray,
        vectors: np.ndarray,
        marks: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> UserIndex:
        turns, kinds, days = marks if marks is not None else unknown_marks(len(ids))
        index = self._copy()
        if self.size == 0:
            index._ids, index._matrix, index._turns, index._kinds, index._days = (
                ids,
                vectors,
                turns,
                kinds,
                days,
            )
        else:
            index._ids = _grown(self._ids, self.size, ids)
            index._matrix = _grown(self._matrix, self.size, vectors)
            index._turns = _grown(self._turns, self.size, turns)
            index._kinds = _grown(self._kinds, self.size, kinds)
            index._days = _grown(self._days, self.size, days)
        if self.projection is not None and self._coarse is not None:
            index._coarse = _grown(self._coarse, self.size, self.projection.rows(vectors))
        index.size = self.size + len(ids)
        index._start_build()
        return index

    def without(self, removed: np.ndarray) -> UserIndex:
        keep = ~np.isin(self.ids, removed)
        index = self._copy()
        index._ids, index._matrix = self.ids[keep], self.matrix[keep]
        index._turns, index._kinds, index._days = self.turns[keep], self.kinds[keep], self.days[keep]
        coarse = self.coarse
        index._coarse = None if coarse is None else coarse[keep]
        index.size = int(keep.sum())
        if index._coarse is None:
            index._build, index.projection = None, None
            index._start_build()
        gone = set(removed.tolist())
        index.superseded = {k: v for k, v in self.superseded.items() if k not in gone}
        return index

    def candidates(self, query: np.ndarray, count: int, beside: Beside | None = None) -> np.ndarray | None:
        """Row positions worth exact scoring, or None when every row should be scored; ``beside``
        scans half the rows (``scan``)."""
        coarse = self.coarse
        if coarse is None or self.projection is None:
            return None
        return _top(self.projection.scores(coarse, query, beside), count)


def unknown_marks(count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(turns, kinds, days) of ``count`` rows whose turn and day are not known here."""
    return (
        np.zeros(count, dtype=np.int64),
        np.full(count, UNKNOWN, dtype=np.int8),
        np.zeros(count, dtype=np.int32),
    )


def _top(scores: np.ndarray, count: int) -> np.ndarray:
    """Positions of the ``count`` highest ``scores``, in no order: what ``argpartition`` gives,
    found in the rows above a threshold read off a sample (one comparison per row, then a
    partition of ~2 * count rows, instead of a partition of all: 0.04 against 0.5 ms at 100k)."""
    size = len(scores)
    count = min(count, size)
    step = size // (8 * count) if count else 0
    if step >= 4:
        sample = scores[::step]
        # The sample's (2 * count / step)-th highest: about 2 * count rows score at least that.
        rank = len(sample) - max(1, 2 * count // step)
        above = np.flatnonzero(scores >= np.partition(sample, rank)[rank])
        if len(above) >= count:  # else (rarely) the sample was unlucky: partition every row
            return above[np.argpartition(scores[above], len(above) - count)[len(above) - count :]]
    return np.argpartition(scores, size - count)[size - count :]


def scan(matrix: np.ndarray, query: np.ndarray, beside: Beside | None) -> np.ndarray:
    """``matrix @ query``; a long matrix in two halves at once, the second on ``beside``'s helper
    (a scan waits on memory, and two cores read it faster than one: recall p50 0.2-0.45 ms lower
    at 100k memories, 0.4-0.7 ms at 10k, interleaved prompt by prompt in one server). Without a
    helper free, both halves run here (``Later.result``)."""
    if beside is None or beside.executor is None or len(matrix) < SPLIT_ROWS:
        return np.asarray(matrix @ query)
    half = len(matrix) // 2
    out = np.empty(len(matrix), dtype=np.result_type(matrix, query))
    second = beside.start(partial(np.dot, matrix[half:], query, out=out[half:]))
    np.dot(matrix[:half], query, out=out[:half])
    second.result()
    return out
