"""Search: an ``Embedder`` (default: numpy hashed word, concept and character n-grams) combined
with the storage's lexical index (BM25), strictly per (tenant, user), with per-user vectors
cached in memory.

Score = cosine (clipped to [0, 1]) plus a bounded BM25 boost: ``cos + 0.15 * lex * (1 - cos)``
where ``lex`` is the fact's BM25 relative to the best lexical match, so scores stay in [0, 1]
and a lexical match can only raise a fact, never invent one with no shared features.
"""

from __future__ import annotations

import re
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

import numpy as np

from .storage import Fact, FactsChange, StateRow, Storage

# A prompt must score at least this to land in recall's `context`. Chosen from the hashed
# features: one shared content word (or topic) between a short prompt and a short fact gives
# ~0.2-0.5; unrelated texts only share stray character trigrams (< 0.1). See test_search.py.
RELEVANCE_THRESHOLD = 0.15
# Below this a match is hash-collision noise (stray trigrams), not similarity: query and state
# search leave it out instead of returning every row with a score of 0.003.
NOISE_FLOOR = 0.05
# The lexical index ranks every fact matching a term before it can return the best few, so a term
# found in more of the tenant's facts than this costs far more than its (low) IDF adds: it is left
# to the vector stage.
LEXICAL_MAX_DOCS = 2000
LEXICAL_WEIGHT = 0.15


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
    """Turns texts into L2-normalised float32 rows of a fixed width (zero rows for featureless text)."""

    dim: int

    def embed(self, texts: list[str]) -> np.ndarray: ...


class HashingEmbedder:
    """Deterministic, dependency-free: hashed stems, topics and character trigrams."""

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


class FactSearch:
    """Ranks one user's facts against a prompt; keeps each user's matrix in memory until a write."""

    def __init__(self, store: Storage, embedder: Embedder, *, max_cached_rows: int = 500_000) -> None:
        self.max_cached_rows = max_cached_rows
        self.store = store
        self.embedder = embedder
        self._cache: OrderedDict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._generation: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()
        store.on_facts_changed(self.invalidate)

    def invalidate(self, change: FactsChange) -> None:
        """Apply a committed change to the cached matrix in place of re-reading the user's rows
        (a 100k-row reload costs ~1 s; appending one row costs a copy)."""
        key = (change.tenant, change.user_id)
        with self._lock:
            self._generation[key] = self._generation.get(key, 0) + 1
            hit = self._cache.pop(key, None)
            if hit is None or change.unknown:
                return
            ids, matrix = hit
            if change.removed_ids:
                keep = ~np.isin(ids, np.asarray(change.removed_ids, dtype=np.int64))
                ids, matrix = ids[keep], matrix[keep]
            if change.added_ids:
                added = np.asarray(change.added_vectors, dtype=np.float32)
                if matrix.shape[0] and matrix.shape[1] != added.shape[1]:
                    return
                ids = np.concatenate([ids, np.asarray(change.added_ids, dtype=np.int64)])
                matrix = np.vstack([matrix, added]) if matrix.shape[0] else added
            self._cache[key] = (ids, np.asfortranarray(matrix))

    def _vectors(self, tenant: str, user_id: str) -> tuple[np.ndarray, np.ndarray]:
        key = (tenant, user_id)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
            generation = self._generation.get(key, 0)
        if hit is not None:
            return hit
        ids, matrix = self.store.facts.vectors(tenant, user_id)
        matrix = np.asfortranarray(matrix)
        with self._lock:
            # A write that landed while we read makes this copy stale: use it once, do not cache it.
            if self._generation.get(key, 0) == generation:
                self._cache[key] = (ids, matrix)
                # Bound memory by rows, not users: one user with 100k facts weighs as much as
                # a thousand small ones. The least recently searched users are dropped first.
                while (
                    len(self._cache) > 1
                    and sum(len(v[0]) for v in self._cache.values()) > self.max_cached_rows
                ):
                    self._cache.popitem(last=False)
        return ids, matrix

    def _selective_terms(self, tenant: str, prompt: str) -> list[str]:
        # The lexical index holds exact lower-cased words, so these look up exactly.
        words = list(dict.fromkeys(w for w in _FTS_WORD.findall(prompt.lower()) if w not in STOPWORDS))[:32]
        counts = self.store.lexical.document_frequencies(tenant, words)
        return [w for w in words if counts.get(w, 0) <= LEXICAL_MAX_DOCS]

    def search(self, tenant: str, user_id: str, prompt: str, k: int) -> list[tuple[Fact, float]]:
        """The user's ``k`` best facts for ``prompt`` with their scores in [0, 1], best first."""
        self.store.sync_facts(tenant, user_id)  # another server process may have written
        ids, matrix = self._vectors(tenant, user_id)
        if len(ids) == 0:
            return []
        query = self.embedder.embed([prompt])[0]
        if not np.any(query) or matrix.shape[1] != query.shape[0]:
            return []
        # A prompt touches few hashed features: multiply only those columns (the cached matrix is
        # column-major, so this reads a few contiguous columns instead of every row).
        active = np.flatnonzero(query)
        scores = np.clip(matrix[:, active] @ query[active], 0.0, 1.0)
        lexical = self.store.lexical.match(
            tenant, user_id, self._selective_terms(tenant, prompt), limit=max(50, 4 * k)
        )
        if lexical:
            best = max(b for _, b in lexical) or 1.0
            positions = np.searchsorted(ids, np.array([i for i, _ in lexical], dtype=np.int64))
            for pos, (fact_id, bm25) in zip(positions, lexical, strict=True):
                if pos < len(ids) and ids[pos] == fact_id:
                    cos = scores[pos]
                    scores[pos] = cos + LEXICAL_WEIGHT * max(bm25, 0.0) / best * (1.0 - cos)
        count = min(k, len(ids))
        top = np.argpartition(-scores, count - 1)[:count] if count < len(ids) else np.arange(len(ids))
        top = top[np.lexsort((-ids[top], -scores[top]))]
        top = [int(i) for i in top if scores[i] >= NOISE_FLOOR]
        facts = self.store.facts.get(tenant, user_id, (int(ids[i]) for i in top))
        by_id = {fact.id: fact for fact in facts}
        out = []
        for i in top:
            fact = by_id.get(int(ids[i]))
            if fact is not None:
                out.append((fact, round(float(min(max(scores[i], 0.0), 1.0)), 6)))
        return out


def cosine_rank(embedder: Embedder, query: str, items: Iterable[StateRow]) -> list[tuple[float, StateRow]]:
    """Scores state rows (read with their vectors) against ``query``; non-indexed rows by word overlap."""
    q = embedder.embed([query])[0]
    words = {stem(w) for w in content_words(query)}
    ranked = []
    for item in items:
        vector = item.vector
        if item.indexed and vector is not None and vector.shape == q.shape:
            score = float(np.clip(vector @ q, 0.0, 1.0))
        else:
            have = {stem(w) for w in content_words(item.text)}
            score = len(words & have) / len(words) if words else 0.0
        if score >= NOISE_FLOOR:
            ranked.append((round(min(score, 1.0), 6), item))
    ranked.sort(key=lambda pair: (-pair[0], pair[1].id))
    return ranked
