"""Search: one user's facts ranked against a prompt, strictly per (tenant, user), with per-user
vectors cached in memory. Four modes (``SEARCH_MODES``):

- ``semantic`` (default): cosine of sentence vectors (``embedding.MiniLMEmbedder``); recall
  passes the ranking through a per-prompt relevance gate (``gate.RelevanceGate``).
- ``hybrid``: semantic plus a bounded BM25 boost from the storage's lexical index.
- ``lexical``: the original search: hashed word, topic and character n-gram vectors
  (``HashingEmbedder``) plus the bounded BM25 boost, ``cos + 0.15 * lex * (1 - cos)`` where
  ``lex`` is the fact's BM25 relative to the best lexical match, so scores stay in [0, 1].
- ``bm25``: BM25 alone, the baseline.

In every mode a fact marked ``superseded_by`` a newer one ranks just below it, and (except
``bm25``) a fact's importance moves its score a little (``weighted_by_importance``). Users with more
than EXACT_SCAN_ROWS facts are scanned in two stages (a 64-wide projection, then exact scores).
"""

from __future__ import annotations

import logging
import re
import threading
import zlib
from collections import Counter, OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

import numpy as np

from .gate import RelevanceGate
from .storage import Fact, FactsChange, StateRow, Storage

V = TypeVar("V")

if TYPE_CHECKING:
    from .backfill import Backfill

log = logging.getLogger("memorysync_server")

# A prompt must score at least this to land in recall's `context`. Chosen from the hashed
# features: one shared content word (or topic) between a short prompt and a short fact gives
# ~0.2-0.5; unrelated texts only share stray character trigrams (< 0.1). See test_search.py.
RELEVANCE_THRESHOLD = 0.15
# Below this a match is hash-collision noise (stray trigrams), not similarity: query and state
# search leave it out instead of returning every row with a score of 0.003.
NOISE_FLOOR = 0.05
# FTS5 ranks every fact matching a term before it can return the best few, so a term found in
# more facts than this costs far more than its (low) IDF adds: it is left to the vector stage.
LEXICAL_MAX_DOCS = 2000
LEXICAL_WEIGHT = 0.15
# The semantic modes: cosine of sentence vectors. Related question/fact pairs score ~0.3-0.7,
# unrelated ones ~0.0-0.2; recall's threshold moves with the prompt (see gate.py).
SEMANTIC_NOISE_FLOOR = 0.1
CONTEXT_RATIO = 0.6
# State search ranks rather than gates: it leaves out records below a loose likeness (a made-up
# word scores ~0.15 against anything) and those far below the best one.
STATE_FLOOR = 0.2
STATE_RELATIVE = 0.35
HYBRID_WEIGHT = 0.15
# A superseded fact scores at most this share of its superseder's score.
SUPERSEDED_RATIO = 0.98
# Importance (0..1, set by writes and moved by feedback) scales a score by at most this share
# either way; 0.5, and a fact whose importance was never set, leave it as it is.
IMPORTANCE_WEIGHT = 0.2
NEUTRAL_IMPORTANCE = 0.5
# Users with more facts than this are scanned in two stages: a COARSE_DIMS-wide projection picks
# COARSE_CANDIDATES rows, whose full vectors are then scored exactly.
EXACT_SCAN_ROWS = 20_000
COARSE_DIMS = 64
COARSE_CANDIDATES = 400
# bm25 mode: a fact whose BM25 is BM25_HALF scores 0.5.
BM25_HALF = 3.0


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOPWORDS = _wordset(
    """a an the and or but so if then than to of in on at by for with from into onto about as is am are was
    were be been being do does did doing have has had having i i'm im me my mine myself we us our you your
    yours he him his she her it its they them their this that these those there here what which who whom whose
    when where why how can could would should will shall may might must not no yes ok okay please thanks thank
    just really very also too any some all each every user user's users's s t d ll m re ve let lets let's
    tell give show know want need like get got make about up down out over again more most much many
    i'd i'll i've it's what's that's don't doesn't didn't can't won't isn't aren't"""
)

# A few topics so that "what should I eat tonight" finds "User is vegan": the hashed default has
# no learned semantics, and these are the topics agents most often remember.
_TOPICS: dict[str, str] = {}
for _topic, _words in {
    "food": "vegan vegetarian eat eating ate food meal dinner lunch breakfast recipe restaurant cook cooking "
    "meat fish allergic allergy peanut peanuts gluten dairy diet hungry snack cuisine dish dishes lactose "
    "kosher halal pescatarian",
    "travel": "flight flights fly flying travel traveling travelling trip seat seats window aisle airport "
    "airline plane hotel vacation holiday train journey",
    "place": "live lives living lived moved move moving city town home address country located based",
    "work": "work works working job office employer company career profession engineer developer manager "
    "colleague colleagues",
    "family": "wife husband partner kid kids child children son daughter mother father parent parents family "
    "dog cat pet pets",
    "language": "speak speaks language languages english spanish french german norwegian",
    "drink": "coffee tea drink drinks beer wine",
    "schedule": "meeting meetings morning mornings evening weekend weekends schedule calendar",
}.items():
    for _word in _words.split():
        _TOPICS[_word] = _topic

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_FTS_WORD = re.compile(r"[^\W_]+")


def stem(word: str) -> str:
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + keep
    return word


def content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 rows of a fixed width (zero rows for featureless text).

    Each embedder's width identifies its stored vectors: facts whose vectors have another width
    were written by another embedder and get re-embedded when their user is first searched.
    """

    dim: int

    def embed(self, texts: list[str]) -> np.ndarray: ...


class HashingEmbedder:
    """Deterministic, dependency-free: hashed stems, topics and character trigrams."""

    name = "hashed"

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim

    def _features(self, text: str) -> dict[int, float]:
        features: dict[int, float] = {}

        def add(name: str, weight: float) -> None:
            slot = zlib.crc32(name.encode("utf-8")) % self.dim
            features[slot] = features.get(slot, 0.0) + weight

        for word in content_words(text):
            add("w:" + stem(word), 1.0)
            topic = _TOPICS.get(word)
            if topic:
                add("t:" + topic, 1.0)
            padded = f"<{word}>"
            grams = [padded[i : i + 3] for i in range(len(padded) - 2)]
            for gram in grams:
                add("c:" + gram, 0.6 / len(grams))
        return features

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for slot, weight in self._features(text).items():
                out[row, slot] = weight
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


SEARCH_MODES = ("semantic", "hybrid", "lexical", "bm25")
DEFAULT_SEARCH = "semantic"


def single_threaded_blas() -> None:
    """Requests run on their own threads; a BLAS that also splits each small matrix product
    across the cores makes them wait for each other (a 100k-row scan took 32 ms instead of 1.2 ms
    on a loaded 2-core machine). Called by ``memorysync-server serve``, which owns its process;
    an embedding application decides for its own process."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(limits=1, user_api="blas")


def embedder_for(mode: str) -> Embedder:
    """The embedder a search mode stores and compares vectors with."""
    if mode not in SEARCH_MODES:
        raise ValueError(f"Unknown search mode {mode!r}; choose one of {', '.join(SEARCH_MODES)}.")
    if mode in ("semantic", "hybrid"):
        from .embedding import minilm

        return minilm()
    return HashingEmbedder()


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


class _CoarseBuild:
    """The coarse projection of a user's first ``rows`` vectors, computed on a background thread
    so the first search after a load does not wait for it (it scans exactly meanwhile)."""

    def __init__(self, matrix: np.ndarray) -> None:
        self.rows = len(matrix)
        self.basis: np.ndarray | None = None
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
            self.coarse = matrix @ basis
            self.basis = basis
        finally:
            self.done.set()


class UserIndex:
    """One user's facts in memory: ids (in id order unless some vectors came late), vectors, the
    coarse projection large users are scanned with first, and which facts are superseded by which."""

    def __init__(
        self,
        ids: np.ndarray,
        matrix: np.ndarray,
        superseded: dict[int, int],
        dense: bool,
        importance: dict[int, float] | None = None,
    ) -> None:
        self.size = len(ids)
        self.importance: dict[int, float] = importance or {}
        self._weights: tuple[dict[int, float], np.ndarray, np.ndarray] | None = None
        self._ids = ids
        self._matrix = matrix
        self._coarse: np.ndarray | None = None
        self.basis: np.ndarray | None = None
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
                order = np.argsort(ids, kind="stable")
                cached = self._sorted = (order, ids[order])
        order, ordered = cached
        at, found = _in_sorted(ordered, fact_ids)
        return (at if order is None else order[at]), found

    def _start_build(self) -> None:
        if self.dense and self.size > EXACT_SCAN_ROWS and self._build is None and self.basis is None:
            self._build = _CoarseBuild(self.matrix)

    @property
    def ids(self) -> np.ndarray:
        return self._ids[: self.size]

    @property
    def matrix(self) -> np.ndarray:
        return self._matrix[: self.size]

    @property
    def coarse(self) -> np.ndarray | None:
        build = self._build
        if self._coarse is None and build is not None and build.done.is_set() and build.basis is not None:
            # The background build finished: take it, projecting the rows appended since.
            assert build.coarse is not None
            self._coarse = _grown(build.coarse, build.rows, self.matrix[build.rows :] @ build.basis)
            self.basis = build.basis
        return None if self._coarse is None else self._coarse[: self.size]

    def _copy(self) -> UserIndex:
        index = UserIndex.__new__(UserIndex)
        index.__dict__.update(self.__dict__)
        index._sorted = None  # the copy's rows change
        return index

    def appended(self, ids: np.ndarray, vectors: np.ndarray) -> UserIndex:
        index = self._copy()
        if self.size == 0:
            index._ids, index._matrix = ids, vectors
        else:
            index._ids = _grown(self._ids, self.size, ids)
            index._matrix = _grown(self._matrix, self.size, vectors)
        if self.basis is not None and self._coarse is not None:
            index._coarse = _grown(self._coarse, self.size, vectors @ self.basis)
        index.size = self.size + len(ids)
        index._start_build()
        return index

    def without(self, removed: np.ndarray) -> UserIndex:
        keep = ~np.isin(self.ids, removed)
        index = self._copy()
        index._ids, index._matrix = self.ids[keep], self.matrix[keep]
        coarse = self.coarse
        index._coarse = None if coarse is None else coarse[keep]
        index.size = int(keep.sum())
        if index._coarse is None:
            index._build, index.basis = None, None
            index._start_build()
        gone = set(removed.tolist())
        index.superseded = {k: v for k, v in self.superseded.items() if k not in gone}
        return index

    def candidates(self, query: np.ndarray, count: int) -> np.ndarray | None:
        """Row positions worth exact scoring, or None when every row should be scored."""
        coarse = self.coarse
        if coarse is None or self.basis is None:
            return None
        approx = _best(coarse, query @ self.basis)
        count = min(count, len(approx))
        return np.argpartition(approx, len(approx) - count)[len(approx) - count :]


class FactSearch:
    """Ranks one user's facts against a prompt; keeps each user's vectors in memory until a write.

    ``mode`` picks the ranking: ``lexical`` (hashed vectors plus a BM25 boost, the original
    search), ``bm25`` (FTS5 BM25 alone), ``semantic`` (cosine of sentence vectors) or ``hybrid``
    (cosine plus a bounded BM25 boost). In every mode a superseded fact ranks below the fact that
    superseded it. ``stages`` counts which search stages ran (benchmarks report it).
    """

    def __init__(
        self, store: Storage, embedder: Embedder, *, mode: str = "lexical", max_cached_rows: int = 500_000
    ) -> None:
        if mode not in SEARCH_MODES:
            raise ValueError(f"Unknown search mode {mode!r}; choose one of {', '.join(SEARCH_MODES)}.")
        self.mode = mode
        self.max_cached_rows = max_cached_rows
        self.store = store
        self.embedder = embedder
        self.stages: Counter[str] = Counter()
        self.gate = RelevanceGate(embedder) if self.dense else None
        # Embeds facts stored without their vector (backfill.Backfill); set by create_app.
        self.backfill: Backfill | None = None
        self._cache: OrderedDict[tuple[str, str], UserIndex] = OrderedDict()
        self._generation: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()
        store.on_facts_changed(self.invalidate)

    @property
    def dense(self) -> bool:
        return self.mode in ("semantic", "hybrid")

    def invalidate(self, change: FactsChange) -> None:
        """Apply a committed change to the cached index in place of re-reading the user's rows
        (a 100k-row reload costs ~1 s; appending one row costs a copy)."""
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
                if added.ndim != 2 or added.shape[1] not in (0, self.embedder.dim):
                    return
                # Facts stored without a vector yet (width 0) join when their vectors are written.
                if added.shape[1]:
                    index = index.appended(np.asarray(change.added_ids, dtype=np.int64), added)
            if change.superseded:
                index.superseded = _changed(index.superseded, change.superseded)
            if change.importance:
                index.importance = _changed(index.importance, change.importance)
            self._cache[key] = index

    def _refresh_stale_vectors(self, tenant: str, user_id: str) -> None:
        """Facts stored by another embedder (an older release, another --search mode) get this
        embedder's vectors, written back once, so every fact stays searchable."""
        stale = self.store.facts.with_other_vectors(tenant, user_id, self.embedder.dim)
        if stale:
            log.info("re-embedding %d facts of one user for the %r search", len(stale), self.mode)
        for start in range(0, len(stale), 256):
            chunk = stale[start : start + 256]
            vectors = self.embedder.embed([text for _, text in chunk])
            self.store.facts.replace_vectors(
                tenant,
                user_id,
                [(fact_id, vector) for (fact_id, _), vector in zip(chunk, vectors, strict=True)],
            )

    def _index(self, tenant: str, user_id: str) -> UserIndex:
        key = (tenant, user_id)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        self.stages["load"] += 1
        with self._lock:
            generation = self._generation.get(key, 0)
        ids, matrix = self.store.facts.vectors(tenant, user_id, dim=self.embedder.dim)
        if self.store.facts.page(tenant, user_id, 1, 0)[1] != len(ids):
            # Some facts carry another embedder's vectors: give them ours, then read again.
            self._refresh_stale_vectors(tenant, user_id)
            with self._lock:
                generation = self._generation.get(key, 0)
            ids, matrix = self.store.facts.vectors(tenant, user_id, dim=self.embedder.dim)
        # Hashed prompts touch few features: column-major lets the lexical mode read only those
        # columns. Dense sentence vectors use every column, so rows stay contiguous.
        matrix = np.ascontiguousarray(matrix) if self.dense else np.asfortranarray(matrix)
        index = UserIndex(
            ids,
            matrix,
            self.store.facts.superseded(tenant, user_id),
            self.dense,
            self.store.facts.importance(tenant, user_id),
        )
        with self._lock:
            # A write that landed while we read makes this copy stale: use it once, do not cache it.
            if self._generation.get(key, 0) == generation:
                self._cache[key] = index
                # Bound memory by rows, not users: one user with 100k facts weighs as much as
                # a thousand small ones. The least recently searched users are dropped first.
                while (
                    len(self._cache) > 1
                    and sum(len(v.ids) for v in self._cache.values()) > self.max_cached_rows
                ):
                    self._cache.popitem(last=False)
        return index

    def _selective_terms(self, tenant: str, prompt: str) -> list[str]:
        # The lexical index holds exact lower-cased words, so these look up exactly.
        words = list(dict.fromkeys(w for w in _FTS_WORD.findall(prompt.lower()) if w not in STOPWORDS))[:32]
        counts = self.store.lexical.document_frequencies(tenant, words)
        selective = [w for w in words if counts.get(w, 0) <= LEXICAL_MAX_DOCS]
        self.stages["lexical" if selective else "lexical skipped (no selective term)"] += 1
        return selective

    def _lexical(self, tenant: str, user_id: str, prompt: str, k: int) -> list[tuple[int, float]]:
        terms = self._selective_terms(tenant, prompt)
        return self.store.lexical.match(tenant, user_id, terms, limit=max(50, 4 * k)) if terms else []

    def _bm25(self, tenant: str, user_id: str, prompt: str, k: int) -> tuple[np.ndarray, np.ndarray]:
        # BM25 alone (the baseline): every content word of the prompt, stemmed and matched as a
        # prefix ("cheer" finds "cheers"), no vector stage. The score saturates instead of being
        # relative to the best match, so a prompt whose only match is one stray word scores low.
        self.stages["bm25"] += 1
        terms = list(dict.fromkeys(stem(w) + "*" for w in content_words(prompt) if len(stem(w)) >= 3))[:32]
        matches = self.store.lexical.match(tenant, user_id, terms, limit=max(k, 1), prefix=True)
        ids = np.array([i for i, _ in matches], dtype=np.int64)
        scores = np.array([b / (b + BM25_HALF) for _, b in matches], dtype=np.float32)
        order = np.argsort(ids)
        return ids[order], scores[order]

    def _vector_scores(self, index: UserIndex, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(row positions, cosine scores): every row, or the coarse stage's candidates."""
        if self.mode == "lexical":
            self.stages["vector (hashed columns)"] += 1
            # A prompt touches few hashed features: multiply only those columns.
            active = np.flatnonzero(query)
            return np.arange(len(index.ids)), np.clip(index.matrix[:, active] @ query[active], 0.0, 1.0)
        rows = index.candidates(query, max(COARSE_CANDIDATES, 8 * k))
        if rows is None:
            self.stages["vector (exact)"] += 1
            return np.arange(len(index.ids)), np.clip(_best(index.matrix, query), 0.0, 1.0)
        self.stages["vector (coarse + exact rerank)"] += 1
        if index.superseded:
            # A candidate's superseder is scored too, so the newer value can rank above it.
            old, new = index.superseded_pairs()
            at, is_old = _in_sorted(old, index.ids[rows])
            where, ok = index.positions(new[at[is_old]])
            rows = np.union1d(rows, where[ok])
        return rows, np.clip(_best(index.matrix[rows], query), 0.0, 1.0)

    def _scores(
        self, tenant: str, user_id: str, prompt: str, k: int, *, gated: bool = False
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """(fact ids, scores) of the facts worth ranking, and the vector the recall gate reads."""
        if self.mode == "bm25":
            return (*self._bm25(tenant, user_id, prompt, k), None)
        queries = None
        if self.backfill is not None and self.backfill.pending(tenant, user_id):
            # The user's newest facts have no vector yet: they are embedded now, in one batch
            # with the prompt (or the search waits for the background batch holding them).
            queries = self.backfill.flush(tenant, user_id, also=self._query_texts(prompt, gated=gated))
        index = self._index(tenant, user_id)
        if len(index.ids) == 0:
            return index.ids, np.zeros(0, dtype=np.float32), None
        if queries is None:
            queries = self.embedder.embed(self._query_texts(prompt, gated=gated))
        # The first text is ranked against; the last one is what recall's gate reads.
        query, as_written = queries[0], queries[-1]
        if not np.any(query) or index.matrix.shape[1] != query.shape[0]:
            return index.ids[:0], np.zeros(0, dtype=np.float32), as_written
        rows, scores = self._vector_scores(index, query, k)
        weight = LEXICAL_WEIGHT if self.mode == "lexical" else HYBRID_WEIGHT if self.mode == "hybrid" else 0.0
        if weight:
            lexical = self._lexical(tenant, user_id, prompt, k)
            if lexical:
                rows, scores = _boosted(index, query, rows, scores, lexical, weight)
        ids = index.ids[rows]
        if index.importance:
            scores = weighted_by_importance(ids, scores, *index.importance_arrays())
        if index.superseded:
            scores = _below_superseders(ids, scores, *index.superseded_pairs())
        return ids, scores, as_written

    def _query_texts(self, prompt: str, *, gated: bool) -> list[str]:
        """The text facts are ranked against, then (when it differs) the text recall's gate reads."""
        if not self.dense:
            return [prompt]
        # Facts read "User ...", so a first-person prompt ("where do I live?") is ranked in the
        # third person. The gate reads the prompt as written: "How do I sort a list?" is a task,
        # while "How do the user sort a list?" sounds like a question about someone. Both texts
        # go through the model in one run, and the second only when recall needs the gate.
        rewritten = third_person(prompt)
        return [rewritten, prompt] if gated and rewritten != prompt else [rewritten]

    def nearest(
        self, tenant: str, user_id: str, vector: np.ndarray, *, before: int
    ) -> tuple[int, float] | None:
        """The fact most similar to ``vector`` among the user's facts older than ``before``.
        Runs inside a write, so it never fills the cache (the write is not committed yet)."""
        key = (tenant, user_id)
        with self._lock:
            index = self._cache.get(key)
        if index is not None:
            ids, matrix = index.ids, index.matrix
        else:
            ids, matrix = self.store.facts.vectors(tenant, user_id, dim=self.embedder.dim)
        older = ids < before
        if not older.any() or matrix.shape[1] != vector.shape[0]:
            return None
        scores = np.where(older, matrix @ vector, -np.inf)  # scores first: no copy of the rows
        best = int(np.argmax(scores))
        return int(ids[best]), float(scores[best])

    def search(self, tenant: str, user_id: str, prompt: str, k: int) -> list[tuple[Fact, float]]:
        """The user's ``k`` best facts for ``prompt`` above the noise floor, with their scores in
        [0, 1], best first."""
        return self._ranked(tenant, user_id, prompt, k)[0]

    def _ranked(
        self, tenant: str, user_id: str, prompt: str, k: int, *, gated: bool = False
    ) -> tuple[list[tuple[Fact, float]], np.ndarray | None]:
        self.store.sync_facts(tenant, user_id)  # another server process may have written
        ids, scores, query = self._scores(tenant, user_id, prompt, k, gated=gated)
        if len(ids) == 0:
            return [], query
        count = min(k, len(ids))
        top = np.argpartition(-scores, count - 1)[:count] if count < len(ids) else np.arange(len(ids))
        top = top[np.lexsort((-ids[top], -scores[top]))]
        floor = self.noise_floor
        top = [int(i) for i in top if scores[i] >= floor]
        facts = self.store.facts.get(tenant, user_id, (int(ids[i]) for i in top))
        by_id = {fact.id: fact for fact in facts}
        out = []
        for i in top:
            fact = by_id.get(int(ids[i]))
            if fact is not None:
                out.append((fact, round(float(min(max(scores[i], 0.0), 1.0)), 6)))
        return out, query

    @property
    def noise_floor(self) -> float:
        return SEMANTIC_NOISE_FLOOR if self.dense else NOISE_FLOOR

    def recall(self, tenant: str, user_id: str, prompt: str, k: int) -> list[tuple[Fact, float]]:
        """The facts worth putting in front of the model for ``prompt``: ``search`` through the
        relevance gate (empty when the prompt concerns nothing this user told us)."""
        ranked, query = self._ranked(tenant, user_id, prompt, k, gated=True)
        if not ranked:
            return []
        if self.gate is not None and query is not None:
            threshold = self.gate.threshold(query)
        else:
            threshold = 0.0 if self.mode == "bm25" else RELEVANCE_THRESHOLD
        if self.gate is not None:
            # Facts far below the best one are what is left when the prompt was about that one.
            threshold = max(threshold, CONTEXT_RATIO * ranked[0][1])
        return [(fact, score) for fact, score in ranked if score >= threshold]


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


def _best(matrix: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """Each row's best dot product over one query vector or several (rows of ``queries``)."""
    if queries.ndim == 1:
        return matrix @ queries
    scores = matrix @ queries.T
    # Column by column: numpy's max(axis=1) over a (n, 2) array runs a slow per-row loop
    # (4.8 ms at 100k rows against 0.1 ms for this).
    best = scores[:, 0].copy()
    for column in range(1, scores.shape[1]):
        np.maximum(best, scores[:, column], out=best)
    return best


_FIRST_PERSON = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"\b(?:I'm|I am|[Ii]m)\b", "the user is"),
        (r"\bI've\b", "the user has"),
        (r"\bI'd\b", "the user would"),
        (r"\bI'll\b", "the user will"),
        (r"\b[Mm]y\b|\b[Mm]ine\b", "the user's"),
        (r"\b[Mm]yself\b|\b[Mm]e\b|\bI\b", "the user"),
    )
)


def third_person(prompt: str) -> str:
    """``prompt`` with first-person pronouns replaced by "the user" (grammar left as it is)."""
    for pattern, replacement in _FIRST_PERSON:
        prompt = pattern.sub(replacement, prompt)
    return prompt


def _in_sorted(ordered: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of ``targets`` in the ascending ``ordered`` and which of them were found."""
    if len(ordered) == 0 or len(targets) == 0:
        return np.zeros(len(targets), dtype=np.int64), np.zeros(len(targets), dtype=bool)
    at = np.minimum(np.searchsorted(ordered, targets), len(ordered) - 1)
    return at, ordered[at] == targets


def _locate(ids: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of ``targets`` in ``ids`` (any order) and which of them were found."""
    if len(ids) < 2 or bool((ids[1:] > ids[:-1]).all()):
        return _in_sorted(ids, targets)  # already in order: no sort (~3 ms for 100k ids)
    order = np.argsort(ids, kind="stable")
    at, found = _in_sorted(ids[order], targets)
    return order[at], found


def _boosted(
    index: UserIndex,
    query: np.ndarray,
    rows: np.ndarray,
    scores: np.ndarray,
    lexical: list[tuple[int, float]],
    weight: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Raise lexical matches by a bounded BM25 boost: ``cos + weight * bm25/best * (1 - cos)``.
    Matches the coarse stage left out are scored exactly and added."""
    best = max(b for _, b in lexical) or 1.0
    fact_ids = np.array([i for i, _ in lexical], dtype=np.int64)
    boost = np.array([weight * max(b, 0.0) / best for _, b in lexical], dtype=np.float32)
    where, ok = index.positions(fact_ids)
    where, boost = where[ok], boost[ok]
    missing = np.setdiff1d(where, rows)
    if len(missing):
        rows = np.concatenate([rows, missing])
        scores = np.concatenate([scores, np.clip(_best(index.matrix[missing], query), 0.0, 1.0)])
    at, _ = _locate(rows, where)
    scores = scores.copy()
    scores[at] = scores[at] + boost * (1.0 - scores[at])
    return rows, scores


def weighted_by_importance(
    ids: np.ndarray, scores: np.ndarray, known: np.ndarray, values: np.ndarray
) -> np.ndarray:
    """``scores`` of the facts ``ids`` times ``1 + IMPORTANCE_WEIGHT * (importance - 0.5)``, kept
    within [0, 1], for the facts ``known`` with importances ``values``: an important fact rises a
    little, an unimportant one sinks a little, and a fact without importance (the usual case)
    keeps its score."""
    if len(known) == 0 or len(ids) == 0:
        return scores
    at, found = _locate(ids, known)
    if not found.any():
        return scores
    at, factor = at[found], 1.0 + IMPORTANCE_WEIGHT * (values[found] - NEUTRAL_IMPORTANCE)
    scores = scores.copy()
    scores[at] = np.clip(scores[at] * factor, 0.0, 1.0)
    return scores


def _below_superseders(ids: np.ndarray, scores: np.ndarray, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """A superseded fact ranks just below the fact that superseded it whenever both are ranked:
    the newer fact states the current value of what the older one answered, so it takes the
    older one's score if that is higher, and the older one keeps SUPERSEDED_RATIO of it.
    ``old`` (ascending) and ``new`` pair each superseded fact with its superseder."""
    # Only the ranked facts are looked up, not every superseded pair of the user.
    at, is_old = _in_sorted(old, ids)
    i = np.flatnonzero(is_old)
    j, has_new = _locate(ids, new[at[i]])
    i, j = i[has_new], j[has_new]
    scores = scores.copy()
    # Several older facts can share one superseder: it takes the best of their scores.
    np.maximum.at(scores, j, scores[i])
    scores[i] = np.minimum(scores[i], scores[j] * SUPERSEDED_RATIO)
    return scores


def cosine_rank(
    embedder: Embedder,
    query: str,
    items: Iterable[StateRow],
    *,
    floor: float = NOISE_FLOOR,
    relative: float = 0.0,
) -> list[tuple[float, StateRow]]:
    """Scores state rows (read with their vectors) against ``query``; non-indexed rows by word
    overlap. Indexed rows whose vector came from another embedder are embedded afresh. Rows
    scoring below ``floor`` or below ``relative`` times the best score are left out."""
    items = list(items)
    q = embedder.embed([query])[0]
    vectors = {item.id: item.vector for item in items}
    stale = [item for item in items if item.indexed and (item.vector is None or item.vector.shape != q.shape)]
    if stale:
        vectors.update(zip((i.id for i in stale), embedder.embed([i.text for i in stale]), strict=True))
    words = {stem(w) for w in content_words(query)}
    ranked = []
    for item in items:
        vector = vectors[item.id]
        if item.indexed and vector is not None:
            score = float(np.clip(vector @ q, 0.0, 1.0))
            keep = score >= floor
        else:
            have = {stem(w) for w in content_words(item.text)}
            score = len(words & have) / len(words) if words else 0.0
            keep = score >= NOISE_FLOOR
        if keep:
            ranked.append((round(min(score, 1.0), 6), item))
    ranked.sort(key=lambda pair: (-pair[0], pair[1].id))
    if ranked and relative:
        ranked = [pair for pair in ranked if pair[0] >= relative * ranked[0][0]]
    return ranked
