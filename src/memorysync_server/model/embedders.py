"""Embedders: what turns texts into the vectors facts are searched by, and which one each search
mode uses (sentence vectors from ``embedding.MiniLMEmbedder``, or hashed features)."""

from __future__ import annotations

import zlib
from typing import Protocol, runtime_checkable

import numpy as np

from ..defaults import DEFAULT_SEARCH, SEARCH_MODES
from ..language.words import content_words, stem

__all__ = [
    "DEFAULT_SEARCH",
    "SEARCH_MODES",
    "Embedder",
    "HashingEmbedder",
    "check_mode",
    "embedder_for",
    "single_threaded_blas",
]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 rows of a fixed width (zero rows for featureless text).

    Each embedder's width identifies its stored vectors: facts whose vectors have another width
    were written by another embedder and get re-embedded when their user is first searched.
    """

    dim: int

    def embed(self, texts: list[str]) -> np.ndarray:
        """One row per text, in order: shape ``(len(texts), dim)``, float32."""
        ...


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


class HashingEmbedder:
    """Deterministic, dependency-free vectors: hashed stems, topics and character trigrams (the
    ``lexical`` search modes; tests use it for speed).

    Args:
        dim: The width of its vectors.
    """

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
        """One L2-normalised row per text (a zero row for text with no features)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for slot, weight in self._features(text).items():
                out[row, slot] = weight
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    def embed_one(self, text: str) -> np.ndarray:
        """The row of one text."""
        return np.asarray(self.embed([text])[0])


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


def check_mode(mode: str) -> None:
    """Refuse a search mode that is not one of ``SEARCH_MODES``."""
    if mode not in SEARCH_MODES:
        raise ValueError(f"Unknown search mode {mode!r}; choose one of {', '.join(SEARCH_MODES)}.")


def embedder_for(mode: str) -> Embedder:
    """The embedder a search mode stores and compares vectors with."""
    check_mode(mode)
    if mode in ("semantic", "hybrid"):
        from .embedding import minilm

        return minilm()
    return HashingEmbedder()
