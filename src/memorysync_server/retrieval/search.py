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
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..domain import KEPT_TURN, Fact, FactsChange
from ..language.people import about_someone
from ..language.words import FTS_WORD, STOPWORDS, content_words, searched_text, stem, third_person
from ..model import Embedder, check_mode
from ..storage import Storage
from .backfill import Backfill
from .beside import Beside, shared_beside
from .fact_cache import FactCache
from .gate import RelevanceGate
from .index import COARSE_CANDIDATES, FACT, TURN, UNKNOWN, UserIndex, _best, _changed, _in_sorted, scan
from .ranking import (
    BM25_HALF,
    HYBRID_WEIGHT,
    LEXICAL_WEIGHT,
    NOISE_FLOOR,
    RELEVANCE_THRESHOLD,
    SEMANTIC_NOISE_FLOOR,
    _below_superseders,
    _boosted,
    companion_threshold,
    diversified,
    weighted_by_importance,
)
from .turns import POOL, marks_of, one_per_turn, turn_of

__all__ = ["FactSearch"]

log = logging.getLogger("memorysync_server")
# Which memories a search may return (a type or metadata filter of the route).
Keep = Callable[[Fact], bool]
# Recall's own prompt as stored: the kept turn it made (None: not kept) and the ids of the facts
# it gives (stored already).
Said = tuple[int | None, set[int]]
# Pieces of work run where their result is asked for (the lexical-only modes encode in microseconds).
INLINE = Beside(None)
# How many of the most similar rows ``nearest`` looks through for the most similar fact (kept turns
# among them are skipped).
NEAREST_POOL = 8

# FTS5 ranks every fact matching a term before it can return the best few, so a term found in
# more facts than this costs far more than its (low) IDF adds: it is left to the vector stage.
LEXICAL_MAX_DOCS = 2000


@dataclass(frozen=True)
class _Candidates:
    """The rows worth ranking, best first: their fact ids, scores and likeness (the score before
    the lexical boost), and where they sit in the index they were scored from (None in ``bm25``
    mode, whose ids come from the lexical index)."""

    ids: np.ndarray
    scores: np.ndarray
    likeness: np.ndarray
    index: UserIndex | None
    where: np.ndarray
    found: np.ndarray


class FactSearch:
    """Ranks one user's facts against a prompt; keeps each user's vectors in memory until a write.

    ``mode`` picks the ranking: ``lexical`` (hashed vectors plus a BM25 boost, the original
    search), ``bm25`` (FTS5 BM25 alone), ``semantic`` (cosine of sentence vectors) or ``hybrid``
    (cosine plus a bounded BM25 boost). In every mode a superseded fact ranks below the fact that
    superseded it. ``stages`` counts which search stages ran (benchmarks report it).
    """

    def __init__(
        self,
        store: Storage,
        embedder: Embedder,
        *,
        mode: str = "lexical",
        max_cached_rows: int = 500_000,
        beside: Beside | None = None,
    ) -> None:
        check_mode(mode)
        self.mode = mode
        self.max_cached_rows = max_cached_rows
        self.store = store
        self.embedder = embedder
        self.stages: Counter[str] = Counter()
        self.gate = RelevanceGate(embedder) if self.dense else None
        # Where the reads that need no vector run while the prompt encodes (beside.py).
        self.beside = (beside or shared_beside()) if self.dense else INLINE
        # Embeds facts stored without their vector (backfill.Backfill); set by create_app.
        self.backfill: Backfill | None = None
        # The facts a prompt would itself give when stored (set by build_services: the pipeline's
        # extraction). Recall leaves them out: the person's message is captured before recall.
        self.echoes: Callable[[str], set[str]] = lambda prompt: set()
        self._cache: OrderedDict[tuple[str, str], UserIndex] = OrderedDict()
        self._generation: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()
        store.on_facts_changed(self.invalidate)
        # The facts behind the best rows, decoded once and kept until a change to them.
        self.fact_cache = FactCache(store.facts.get)
        store.on_facts_changed(self.fact_cache.changed)

    @property
    def dense(self) -> bool:
        return self.mode in ("semantic", "hybrid")

    def cache_sizes(self) -> dict[str, int]:
        """How much the in-memory caches hold now: the users whose index is kept, the rows of
        those indexes, and the decoded facts (``GET /metrics``)."""
        with self._lock:
            users, rows = len(self._cache), sum(len(index.ids) for index in self._cache.values())
        return {"index_users": users, "index_rows": rows, "facts": self.fact_cache.size()}

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

    def _refresh_stale_vectors(self, tenant: str, user_id: str) -> None:
        """Facts stored by another embedder (an older release, another --search mode) get this
        embedder's vectors, written back once, so every fact stays searchable."""
        stale = self.store.facts.with_other_vectors(tenant, user_id, self.embedder.dim)
        if stale:
            log.info("re-embedding %d facts of one user for the %r search", len(stale), self.mode)
        for start in range(0, len(stale), 256):
            chunk = stale[start : start + 256]
            vectors = self.embedder.embed([searched_text(text) for _, text in chunk])
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
        ids, matrix, marks = self.store.facts.indexed(tenant, user_id, self.embedder.dim)
        if self.store.facts.page(tenant, user_id, 1, 0, kept_turns=True)[1] != len(ids):
            # Some facts carry another embedder's vectors: give them ours, then read again.
            self._refresh_stale_vectors(tenant, user_id)
            with self._lock:
                generation = self._generation.get(key, 0)
            ids, matrix, marks = self.store.facts.indexed(tenant, user_id, self.embedder.dim)
        # Hashed prompts touch few features: column-major lets the lexical mode read only those
        # columns. Dense sentence vectors use every column, so rows stay contiguous.
        matrix = np.ascontiguousarray(matrix) if self.dense else np.asfortranarray(matrix)
        index = UserIndex(
            ids,
            matrix,
            self.store.facts.superseded(tenant, user_id),
            self.dense,
            self.store.facts.importance(tenant, user_id),
            marks_of(ids, marks),
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
        words = list(dict.fromkeys(w for w in FTS_WORD.findall(prompt.lower()) if w not in STOPWORDS))[:32]
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
            at, is_old = _in_sorted(old, index.ids[rows])
            where, ok = index.positions(new[at[is_old]])
            rows = np.union1d(rows, where[ok])
        return rows, np.clip(_best(index.matrix[rows], query), 0.0, 1.0)

    def _scores(
        self, tenant: str, user_id: str, prompt: str, k: int, *, said: Callable[[], Said]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, Callable[[], Said], UserIndex | None]:
        """(fact ids, scores, likeness) of the facts worth ranking, the prompt's vector (recall's
        gate reads it too), what gives ``said()`` (called if anything ranks), and the index the
        ids came from (None in ``bm25`` mode). ``likeness`` is the score before any lexical
        boost: what the gate compares, since a prompt that shares a word with a fact is not about
        the person for that."""
        if self.mode == "bm25":
            ids, scores = self._bm25(tenant, user_id, prompt, k)
            return ids, scores, scores, None, said, None
        queries = None
        if self.backfill is not None and self.backfill.pending(tenant, user_id):
            # The user's newest facts have no vector yet: they are embedded now, in one batch
            # with the prompt (or the search waits for the background batch holding them).
            queries = self.backfill.flush(tenant, user_id, also=self._query_texts(prompt))
        index = self._index(tenant, user_id)
        if len(index.ids) == 0:
            none = np.zeros(0, dtype=np.float32)
            return index.ids, none, none, None, said, index
        weight = LEXICAL_WEIGHT if self.mode == "lexical" else HYBRID_WEIGHT if self.mode == "hybrid" else 0.0

        # The reads that need no vector (the lexical stage, then what the prompt itself stored,
        # after the rows were read: see _said) run on a helper thread (beside.py) while this one
        # encodes the prompt: they end long before the encode, so nothing waits for a thread to
        # wake up (the other way round cost 0.2-0.5 ms a recall over HTTP at 100k).
        def reads() -> tuple[list[tuple[int, float]], Said]:
            return (self._lexical(tenant, user_id, prompt, k, len(index.ids)) if weight else []), said()

        later = self.beside.start(reads)
        query = (self.embedder.embed(self._query_texts(prompt)) if queries is None else queries)[0]
        lexical, stored = later.result()
        if not np.any(query) or index.matrix.shape[1] != query.shape[0]:
            none = np.zeros(0, dtype=np.float32)
            return index.ids[:0], none, none, query, said, index
        rows, scores = self._vector_scores(index, query, k)
        likeness = scores
        if weight and lexical:
            rows, scores, likeness = _boosted(index, query, rows, scores, lexical, weight)
        ids = index.ids[rows]
        if index.importance:
            scores = weighted_by_importance(ids, scores, *index.importance_arrays())
        if index.superseded:
            scores = _below_superseders(ids, scores, *index.superseded_pairs())
        return ids, scores, likeness, query, lambda: stored, index

    def _query_texts(self, prompt: str) -> list[str]:
        """The one text the prompt is encoded as: facts are ranked against it, recall's gate reads it."""
        # Facts read "User ...", so a first-person prompt ("where do I live?") is ranked in the
        # third person. The gate judges the prompt as written, from this same vector
        # (gate.RelevanceGate.personal, ``retold``): a second encode of the prompt as written
        # cost a recall on 2 cores about as much as the first.
        return [third_person(prompt) if self.dense else prompt]

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
            # A large user is scanned as a search scans it: the coarse projection picks the rows
            # worth scoring exactly (every row of 100k facts cost 14-27 ms per stated change).
            rows = index.candidates(vector, COARSE_CANDIDATES) if matrix.shape[1] == vector.shape[0] else None
            if rows is not None:
                ids, matrix = ids[rows], matrix[rows]
        else:
            rows = None
            ids, matrix = self.store.facts.vectors(tenant, user_id, dim=self.embedder.dim)
        self.stages["nearest (exact)" if rows is None else "nearest (coarse + exact rerank)"] += 1
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
                found = self.store.facts.get(tenant, user_id, [int(ids[i])])
                if found and found[0].event_type != KEPT_TURN:
                    return int(ids[i]), float(scores[i])
            return None
        stored = {
            f.id: f.event_type for f in self.store.facts.get(tenant, user_id, (int(ids[i]) for i in best))
        }
        for i in best:
            if stored.get(int(ids[i]), KEPT_TURN) != KEPT_TURN:
                return int(ids[i]), float(scores[i])
        return None

    def search(
        self, tenant: str, user_id: str, prompt: str, k: int, *, keep: Keep | None = None
    ) -> list[tuple[Fact, float]]:
        """The user's ``k`` best facts for ``prompt`` above the noise floor, with their scores in
        [0, 1], best first; with ``keep``, only the memories it accepts (a type filter, say)."""
        return self._ranked(tenant, user_id, prompt, k, keep=keep)[0]

    def _ranked(
        self,
        tenant: str,
        user_id: str,
        prompt: str,
        k: int,
        *,
        without: Callable[[], Said] = lambda: (None, set()),
        keep: Keep | None = None,
    ) -> tuple[list[tuple[Fact, float]], np.ndarray | None, float]:
        self.store.sync_facts(tenant, user_id)  # another server process may have written
        ids, scores, likeness, query, said, index = self._scores(tenant, user_id, prompt, k, said=without)
        if len(ids) == 0:
            return [], query, 0.0
        count = min(POOL * k, len(ids))
        pool = np.argpartition(-scores, count - 1)[:count] if count < len(ids) else np.arange(len(ids))
        pool = pool[np.lexsort((-ids[pool], -scores[pool]))]
        top = pool[scores[pool] >= self.noise_floor]
        # The index knows each row's turn and kind: only the memories that end up in the result
        # are decoded (a recall at 100k decoded 40, ~0.5 ms). Rows it does not know (edited since
        # it was read), and every row a ``keep`` filter must see, are decoded first.
        where, found = index.positions(ids[top]) if index is not None else (top, np.zeros(len(top), bool))
        candidates = _Candidates(ids[top], scores[top], likeness[top], index, where, found)
        said_now = said()
        ranked = self._grouped(
            tenant, user_id, candidates, said_now, k, keep=keep, decode_all=keep is not None
        )
        if ranked is None:  # a memory chosen undecoded was deleted meanwhile: rank as if it never was
            ranked = self._grouped(tenant, user_id, candidates, said_now, k, keep=keep, decode_all=True)
        out, liked = ranked if ranked is not None else ([], 0.0)
        return out, query, liked

    def _grouped(
        self,
        tenant: str,
        user_id: str,
        candidates: _Candidates,
        said: Said,
        k: int,
        *,
        keep: Keep | None,
        decode_all: bool,
    ) -> tuple[list[tuple[Fact, float]], float] | None:
        """The candidates with one member per turn, near-repeats moved down, less the turn and the
        facts the prompt itself stored (``said``), and the best likeness outside that turn (for
        recall's gate); None when a memory chosen without decoding turned out deleted
        (``decode_all`` then decodes first)."""
        ids, scores, likeness = candidates.ids, candidates.scores, candidates.likeness
        index, where, found = candidates.index, candidates.where, candidates.found
        left_out, echoes = said
        if index is not None:
            turns = index.turns[where]
            kinds = np.where(found, index.kinds[where], np.int8(UNKNOWN))
        else:
            turns, kinds = np.zeros(len(ids), dtype=np.int64), np.full(len(ids), UNKNOWN, dtype=np.int8)
        # A set lookup per candidate: np.isin sorts both arrays (~50 us for 40 candidates).
        alive = (
            np.array([i not in echoes for i in ids.tolist()], dtype=bool)
            if echoes
            else np.ones(len(ids), bool)
        )
        decoded: dict[int, Fact] = {}
        need = np.flatnonzero(alive if decode_all else alive & (kinds == UNKNOWN))
        if len(need):
            decoded = {f.id: f for f in self.fact_cache.get(tenant, user_id, (int(i) for i in ids[need]))}
            for j in need:
                fact = decoded.get(int(ids[j]))
                if fact is None or (keep is not None and not keep(fact)):
                    # A filter applies before turns are grouped: a turn asked for by type stands for itself.
                    alive[j] = False
                else:
                    turns[j], kinds[j] = turn_of(fact), TURN if fact.event_type == KEPT_TURN else FACT
        members = np.flatnonzero(alive if left_out is None else alive & (turns != left_out))
        liked = float(likeness[members].max()) if len(members) else 0.0
        scored = [round(score, 6) for score in np.clip(scores[members], 0.0, 1.0).tolist()]
        member_turns = [int(t) for t in turns[members]]
        if self.dense and index is not None and len(members) >= 2 and bool(found[members].all()):
            # Near-repeats move down (ranking.diversified); hashed vectors say little about meaning.
            order = diversified(scored, index.matrix[where[members]], member_turns, k)
        else:
            order = list(enumerate(scored))
        chosen = one_per_turn(
            [member_turns[i] for i, _ in order],
            [int(kinds[members[i]]) for i, _ in order],
            [s for _, s in order],
            k,
        )
        picked = [(int(ids[members[order[i][0]]]), best) for i, best in chosen]
        missing = [fact_id for fact_id, _ in picked if fact_id not in decoded]
        if missing:
            decoded.update((f.id, f) for f in self.fact_cache.get(tenant, user_id, missing))
        if any(fact_id not in decoded for fact_id, _ in picked):
            return None
        return [(decoded[fact_id], best) for fact_id, best in picked], liked

    def _said(self, tenant: str, user_id: str, prompt: str) -> Said:
        """What storing ``prompt`` as the person's turn made: the kept turn with its words (its
        facts name it), and the ids of the facts it gives (a one-sentence turn is not kept).
        Looked up after the ranking read the rows: a turn stored meanwhile is in neither (its
        facts commit with it), while one looked up first could land in the ranking unnoticed."""
        said = self.store.facts.find_by_text(tenant, user_id, prompt.strip())
        turn = said.id if said is not None and said.event_type == KEPT_TURN else None
        echoes = (self.store.facts.find_by_text(tenant, user_id, text) for text in self.echoes(prompt))
        return turn, {fact.id for fact in echoes if fact is not None and fact.event_type != KEPT_TURN}

    @property
    def noise_floor(self) -> float:
        return SEMANTIC_NOISE_FLOOR if self.dense else NOISE_FLOOR

    def recall(
        self, tenant: str, user_id: str, prompt: str, k: int, *, keep: Keep | None = None
    ) -> list[tuple[Fact, float]]:
        """The facts worth putting in front of the model for ``prompt``: ``search`` through the
        relevance gate (empty when the prompt concerns nothing this user told us).

        The prompt itself, when it was captured as a turn just before this recall (adapters
        send the person's message before asking), is left out with its facts: echoing it back
        would push out what the person said before. No cut relative to the best score: a
        question often needs a second fact that scores well below the first ("What's the
        weather in my city?" needs where the person lives, below "User hates rain"): once the
        best memory passes the gate, the others need ``companion_threshold``."""
        ranked, query, likeness = self._ranked(
            tenant,
            user_id,
            prompt,
            k,
            without=lambda: self._said(tenant, user_id, prompt),
            keep=keep,
        )
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
        best = ranked[0][1]
        # The likeness before any word match decides for other prompts: sharing a word with a
        # fact does not make a prompt about the person.
        if (best if personal else min(best, likeness)) < threshold:
            return []
        if self.gate is not None:
            # A kept turn's many words often score above any fact: the others are measured
            # against the best fact, or one such turn would push every fact out of the block.
            facts = [score for fact, score in ranked if fact.event_type != KEPT_TURN]
            threshold = companion_threshold(threshold, max(facts, default=best))
        return [(fact, score) for fact, score in ranked if score >= threshold]
