"""The first stage of a search: the rows worth ranking, scored against the prompt.

The prompt is encoded (``semantic``/``hybrid``: a sentence vector of its third-person reading;
``lexical``: hashed features) and scored against the user's index: every row, or for a large user
the coarse stage's candidates then their exact scores (``index``). ``lexical`` and ``hybrid`` add
a bounded BM25 boost from the store's lexical index; ``bm25`` ranks by that index alone. Then
a memory said on the days the prompt names rises (``language.when``), importance moves a score a
little and a superseded fact drops just below its superseder (``ranking``). The person's next
turn after a match, the same day, rises toward it (``ranking.followed``). What is left above
the noise floor, best first, is the candidates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..language.scripts import CJK, has_letters, query_terms
from ..language.when import asked_days
from ..language.words import STOPWORDS, content_words, stem, third_person
from ..model import Embedder
from ..storage import Storage
from .arrays import best_dot, in_sorted
from .backfill import Backfill
from .beside import Beside
from .index import COARSE_CANDIDATES, UserIndex, scan
from .index_cache import IndexCache
from .ranking import (
    BM25_HALF,
    HYBRID_WEIGHT,
    LEXICAL_WEIGHT,
    NOISE_FLOOR,
    SEMANTIC_NOISE_FLOOR,
    below_superseders,
    boosted,
    followed,
    said_then,
    weighted_by_importance,
)
from .said import Said
from .turns import POOL

__all__ = ["LEXICAL_MAX_DOCS", "CandidateFinder", "Candidates", "Found"]

# FTS5 ranks every fact matching a term before it can return the best few, so a term found in
# more facts than this costs far more than its (low) IDF adds: it is left to the vector stage.
LEXICAL_MAX_DOCS = 2000


@dataclass(frozen=True)
class Candidates:
    """The rows worth ranking, best first: their fact ids, scores and likeness (the score before
    the lexical boost), and where they sit in the index they were scored from (None in ``bm25``
    mode, whose ids come from the lexical index)."""

    ids: np.ndarray
    scores: np.ndarray
    likeness: np.ndarray
    index: UserIndex | None
    where: np.ndarray
    found: np.ndarray


@dataclass(frozen=True)
class Found:
    """What the first stage found: the candidates (None when no row was scored at all), the
    prompt's vector (recall's gate reads it too), and what the prompt itself stored (``said``:
    read beside the encode, or when asked)."""

    candidates: Candidates | None
    query: np.ndarray | None
    said: Callable[[], Said]


class CandidateFinder:
    """Scores one user's rows against a prompt in one search ``mode``; ``stages`` counts which
    scoring stages ran."""

    def __init__(
        self,
        store: Storage,
        embedder: Embedder,
        indexes: IndexCache,
        *,
        mode: str,
        beside: Beside,
        stages: Counter[str],
    ) -> None:
        self.store, self.embedder, self.indexes, self.mode = store, embedder, indexes, mode
        self.dense = mode in ("semantic", "hybrid")
        # Where the reads that need no vector run while the prompt encodes (beside.py).
        self.beside = beside
        self.stages = stages
        # Embeds facts stored without their vector (backfill.Backfill).
        self.backfill: Backfill | None = None
        self.noise_floor = SEMANTIC_NOISE_FLOOR if self.dense else NOISE_FLOOR

    def query_texts(self, prompt: str) -> list[str]:
        """The one text the prompt is encoded as: facts are ranked against it, recall's gate reads it."""
        # Facts read "User ...", so a first-person prompt ("where do I live?") is ranked in the
        # third person. The gate judges the prompt as written, from this same vector
        # (gate.RelevanceGate.personal, ``retold``): a second encode of the prompt as written
        # cost a recall on 2 cores about as much as the first.
        return [third_person(prompt) if self.dense else prompt]

    def find(self, tenant: str, user_id: str, prompt: str, k: int, *, said: Callable[[], Said]) -> Found:
        """The candidates for the ``k`` best of the user's facts (POOL a place: grouping a turn
        with its facts takes some), above the noise floor."""
        ids, scores, likeness, query, said, index = self._scores(tenant, user_id, prompt, k, said=said)
        if len(ids) == 0:
            return Found(None, query, said)
        count = min(POOL * k, len(ids))
        pool = np.argpartition(-scores, count - 1)[:count] if count < len(ids) else np.arange(len(ids))
        pool = pool[np.lexsort((-ids[pool], -scores[pool]))]
        top = pool[scores[pool] >= self.noise_floor]
        # The index knows each row's turn and kind: only the memories that end up in the result
        # are decoded (a recall at 100k decoded 40, ~0.5 ms). Rows it does not know (edited since
        # it was read), and every row a ``keep`` filter must see, are decoded first.
        where, found = index.positions(ids[top]) if index is not None else (top, np.zeros(len(top), bool))
        return Found(Candidates(ids[top], scores[top], likeness[top], index, where, found), query, said)

    def _scores(
        self, tenant: str, user_id: str, prompt: str, k: int, *, said: Callable[[], Said]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, Callable[[], Said], UserIndex | None]:
        """(fact ids, scores, likeness) of the facts worth ranking, the prompt's vector, what gives
        ``said()`` (called if anything ranks), and the index the ids came from (None in ``bm25``
        mode). ``likeness`` is the score before any lexical boost: what the gate compares, since
        a prompt that shares a word with a fact is not about the person for that."""
        if self.mode == "bm25":
            ids, scores = self._bm25(tenant, user_id, prompt, k)
            return ids, scores, scores, None, said, None
        queries = None
        if self.backfill is not None and self.backfill.pending(tenant, user_id):
            # The user's newest facts have no vector yet: they are embedded now, in one batch
            # with the prompt (or the search waits for the background batch holding them).
            queries = self.backfill.flush(tenant, user_id, also=self.query_texts(prompt))
        index = self.indexes.get(tenant, user_id)
        if len(index.ids) == 0:
            none = np.zeros(0, dtype=np.float32)
            return index.ids, none, none, None, said, index
        weight = LEXICAL_WEIGHT if self.mode == "lexical" else HYBRID_WEIGHT if self.mode == "hybrid" else 0.0

        # The reads that need no vector (the lexical stage, then what the prompt itself stored,
        # after the rows were read: see said.said) run on a helper thread (beside.py) while this
        # one encodes the prompt: they end long before the encode, so nothing waits for a thread
        # to wake up (the other way round cost 0.2-0.5 ms a recall over HTTP at 100k).
        def reads() -> tuple[list[tuple[int, float]], Said]:
            return (self._lexical(tenant, user_id, prompt, k, len(index.ids)) if weight else []), said()

        later = self.beside.start(reads)
        query = (self.embedder.embed(self.query_texts(prompt)) if queries is None else queries)[0]
        lexical, stored = later.result()
        if not np.any(query) or index.matrix.shape[1] != query.shape[0]:
            none = np.zeros(0, dtype=np.float32)
            return index.ids[:0], none, none, query, said, index
        rows, scores = self._vector_scores(index, query, k)
        likeness = scores
        if weight and lexical:
            rows, scores, likeness = boosted(index, query, rows, scores, lexical, weight)
        span = asked_days(prompt, self.store.clock().date())
        if span is not None:
            # Rows a large user's coarse stage left out are not added: a day alone does not make
            # a memory worth scoring.
            scores = said_then(scores, index.days[rows], span)
        # The turn after a match may answer it without naming it: it rises toward the match.
        scores = followed(scores, rows, index.turns, index.kinds, index.days, 2 * POOL * k)
        ids = index.ids[rows]
        if index.importance:
            scores = weighted_by_importance(ids, scores, *index.importance_arrays())
        if index.superseded:
            scores = below_superseders(ids, scores, *index.superseded_pairs())
        return ids, scores, likeness, query, lambda: stored, index

    def _selective_terms(self, tenant: str, prompt: str) -> list[str]:
        # The lexical index holds the terms language.scripts cuts a text into, so these look up exactly.
        words = query_terms(prompt, STOPWORDS)[:32]
        counts = self.store.lexical.document_frequencies(tenant, words)
        selective = [w for w in words if counts.get(w, 0) <= LEXICAL_MAX_DOCS]
        self.stages["lexical" if selective else "lexical skipped (no selective term)"] += 1
        return selective

    def _lexical(self, tenant: str, user_id: str, prompt: str, k: int, facts: int) -> list[tuple[int, float]]:
        terms = self._selective_terms(tenant, prompt)
        if not terms:
            return []
        return self.store.lexical.match(tenant, user_id, terms, limit=max(50, 4 * k), user_facts=facts)

    def _bm25(self, tenant: str, user_id: str, prompt: str, k: int) -> tuple[np.ndarray, np.ndarray]:
        # BM25 alone (the baseline): every content word of the prompt, stemmed and matched as a
        # prefix ("cheer" finds "cheers"), no vector stage. The score saturates instead of being
        # relative to the best match, so a prompt whose only match is one stray word scores low.
        self.stages["bm25"] += 1
        terms = list(dict.fromkeys(stem(w) + "*" for w in content_words(prompt) if len(stem(w)) >= 3))
        # Chinese and Japanese have no words to stem: their character pairs match exactly.
        terms = (terms + [t for t in query_terms(prompt) if has_letters(t, CJK)])[:32]
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
        # Long scans run half on a helper thread (index.scan): the encode that used it is done.
        rows = index.candidates(query, max(COARSE_CANDIDATES, 8 * k), self.beside)
        if rows is None:
            self.stages["vector (exact)"] += 1
            return np.arange(len(index.ids)), np.clip(scan(index.matrix, query, self.beside), 0.0, 1.0)
        self.stages["vector (coarse + exact rerank)"] += 1
        # In row order: the rows are read in address order, and the steps after find rows in
        # them by binary search (no sort of the candidates each).
        rows = np.sort(rows)
        if index.superseded:
            # A candidate's superseder is scored too, so the newer value can rank above it.
            old, new = index.superseded_pairs()
            at, is_old = in_sorted(old, index.ids[rows])
            where, ok = index.positions(new[at[is_old]])
            rows = np.union1d(rows, where[ok])
        return rows, np.clip(best_dot(index.matrix[rows], query), 0.0, 1.0)
