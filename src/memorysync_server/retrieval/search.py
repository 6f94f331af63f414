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

from collections import Counter
from collections.abc import Callable
from functools import partial

import numpy as np

from ..domain import Fact
from ..language.detect import reads_as_english
from ..language.people import about_someone
from ..language.words import third_person
from ..model import Embedder, check_mode
from ..storage import Storage
from .any_language import about_the_person
from .backfill import Backfill
from .beside import Beside, shared_beside
from .candidates import CandidateFinder
from .fact_cache import FactCache
from .gate import RelevanceGate, passed
from .grouping import Keep, Ranked, grouped
from .index_cache import IndexCache
from .nearest import nearest
from .ranking import RELEVANCE_THRESHOLD
from .said import Said, said

__all__ = ["FactSearch"]

# Pieces of work run where their result is asked for (the lexical-only modes encode in microseconds).
INLINE = Beside(None)


class FactSearch:
    """Ranks one user's facts against a prompt; keeps each user's vectors in memory until a write.

    ``mode`` picks the ranking: ``lexical`` (hashed vectors plus a BM25 boost, the original
    search), ``bm25`` (FTS5 BM25 alone), ``semantic`` (cosine of sentence vectors) or ``hybrid``
    (cosine plus a bounded BM25 boost). In every mode a superseded fact ranks below the fact that
    superseded it. ``stages`` counts which search stages ran (benchmarks report it).

    A search runs in stages, each its own module: the user's index (``index_cache``), the
    candidates scored against the prompt (``candidates``), one member per turn less what the
    prompt itself stored (``grouping``, ``said``), and for recall the relevance gate (``gate``).
    """

    def __init__(
        self,
        store: Storage,
        embedder: Embedder,
        *,
        mode: str = "lexical",
        max_cached_rows: int = 500_000,
        beside: Beside | None = None,
        backfill: Backfill | None = None,
    ) -> None:
        check_mode(mode)
        self.mode = mode
        self.store = store
        self.embedder = embedder
        self.stages: Counter[str] = Counter()
        self.gate = RelevanceGate(embedder) if self.dense else None
        self.indexes = IndexCache(
            store, embedder.dim, dense=self.dense, max_rows=max_cached_rows, stages=self.stages
        )
        store.on_facts_changed(self.indexes.changed)
        self.candidates = CandidateFinder(
            store,
            embedder,
            self.indexes,
            mode=mode,
            # Where the reads that need no vector run while the prompt encodes (beside.py).
            beside=(beside or shared_beside()) if self.dense else INLINE,
            stages=self.stages,
        )
        # The facts a prompt would itself give when stored (set by build_services: the pipeline's
        # extraction). Recall leaves them out: the person's message is captured before recall.
        self.echoes: Callable[[str], set[str]] = lambda prompt: set()
        # The facts behind the best rows, decoded once and kept until a change to them.
        self.fact_cache = FactCache(store.facts.get)
        store.on_facts_changed(self.fact_cache.changed)
        self.backfill = backfill

    @property
    def dense(self) -> bool:
        return self.mode in ("semantic", "hybrid")

    def cache_sizes(self) -> dict[str, int]:
        """How much the in-memory caches hold now: the users whose index is kept, the rows of
        those indexes, and the decoded facts (``GET /metrics``)."""
        users, rows = self.indexes.sizes()
        return {"index_users": users, "index_rows": rows, "facts": self.fact_cache.size()}

    @property
    def noise_floor(self) -> float:
        return self.candidates.noise_floor

    @property
    def beside(self) -> Beside:
        return self.candidates.beside

    @beside.setter
    def beside(self, beside: Beside) -> None:
        self.candidates.beside = beside

    @property
    def backfill(self) -> Backfill | None:
        """Writes the vectors a search needs and the store lacks: facts stored without one
        (embedded with the prompt, in one batch), or with another embedder's."""
        return self.candidates.backfill

    @backfill.setter
    def backfill(self, backfill: Backfill | None) -> None:
        self.candidates.backfill = self.indexes.backfill = backfill

    def query_texts(self, prompt: str) -> list[str]:
        """The one text the prompt is encoded as: facts are ranked against it, recall's gate reads it."""
        return self.candidates.query_texts(prompt)

    def nearest(
        self, tenant: str, user_id: str, vector: np.ndarray, *, before: int
    ) -> tuple[int, float] | None:
        """The fact most similar to ``vector`` among the user's facts older than ``before``.
        Runs inside a write, so it never fills the cache (the write is not committed yet)."""
        return nearest(self.store, self.indexes, tenant, user_id, vector, before=before)

    def search(
        self, tenant: str, user_id: str, prompt: str, k: int, *, keep: Keep | None = None
    ) -> list[tuple[Fact, float]]:
        """The user's ``k`` best facts for ``prompt`` above the noise floor, with their scores in
        [0, 1], best first; with ``keep``, only the memories it accepts (a type filter, say)."""
        return self._ranked(tenant, user_id, prompt, k, keep=keep)[0][0]

    def recall(
        self, tenant: str, user_id: str, prompt: str, k: int, *, keep: Keep | None = None
    ) -> list[tuple[Fact, float]]:
        """The facts worth putting in front of the model for ``prompt``: ``search`` through the
        relevance gate (empty when the prompt concerns nothing this user told us).

        The prompt itself, when it was captured as a turn just before this recall (adapters
        send the person's message before asking), is left out with its facts: echoing it back
        would push out what the person said before (``said``)."""
        (ranked, likeness), query = self._ranked(
            tenant,
            user_id,
            prompt,
            k,
            without=partial(said, self.store, self.echoes, tenant, user_id, prompt),
            keep=keep,
        )
        if ranked and not reads_as_english(prompt):
            ranked = about_the_person(prompt, ranked)  # the gate's examples are English
        if not ranked:
            return []
        personal = about_someone(prompt)
        if self.gate is not None and query is not None:
            threshold = self.gate.threshold(query, retold=third_person(prompt) != prompt)
            if personal:
                # A question about a person is personal whatever the name (the vector's verdict
                # moves with it), and recall is never stricter than search: what search finds
                # above its floor reaches the block, the best first.
                threshold = min(threshold, self.noise_floor)
        else:
            threshold = 0.0 if self.mode == "bm25" else RELEVANCE_THRESHOLD
        return passed(ranked, likeness, threshold, companions=self.gate is not None, personal=personal)

    def _ranked(
        self,
        tenant: str,
        user_id: str,
        prompt: str,
        k: int,
        *,
        without: Callable[[], Said] = lambda: (None, set()),
        keep: Keep | None = None,
    ) -> tuple[Ranked, np.ndarray | None]:
        self.store.sync_facts(tenant, user_id)  # another server process may have written
        found = self.candidates.find(tenant, user_id, prompt, k, said=without)
        if found.candidates is None:
            return ([], 0.0), found.query
        ranked = grouped(
            found.candidates,
            found.said(),
            k,
            read=partial(self.fact_cache.get, tenant, user_id),
            keep=keep,
            diversify=self.dense,
        )
        return ranked, found.query
