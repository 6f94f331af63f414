"""Retrieval: one user's facts ranked against a prompt.

One job a module, each depending only on those above it:

- ``text``: stopwords, words, stems, first-person prompts retold in the third person;
- ``embedders``: the ``Embedder`` protocol, the hashed embedder, the embedder of each search mode;
- ``index``: one user's vectors in memory and the two-stage scan of large users;
- ``ranking``: scores, thresholds and the ranking of state records;
- ``gate``: recall's per-prompt relevance threshold;
- ``backfill``: vectors for facts stored without one, embedded after the write answered;
- ``search``: ``FactSearch``, which puts them together per (tenant, user).
"""

from .backfill import PENDING, Backfill
from .embedders import (
    DEFAULT_SEARCH,
    SEARCH_MODES,
    Embedder,
    HashingEmbedder,
    embedder_for,
    single_threaded_blas,
)
from .ranking import STATE_FLOOR, STATE_RELATIVE, cosine_rank
from .search import FactSearch
from .text import content_words, stem

__all__ = [
    "DEFAULT_SEARCH",
    "PENDING",
    "SEARCH_MODES",
    "STATE_FLOOR",
    "STATE_RELATIVE",
    "Backfill",
    "Embedder",
    "FactSearch",
    "HashingEmbedder",
    "content_words",
    "cosine_rank",
    "embedder_for",
    "single_threaded_blas",
    "stem",
]
