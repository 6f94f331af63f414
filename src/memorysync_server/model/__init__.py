"""The text encoder: the ``Embedder`` protocol and the embedder of each search mode
(``embedders``), the bundled MiniLM and its tokenizer (``embedding``), the per-machine choice of
its graph (``encoder_choice``) and loading it in the background (``loading``). The weights ship
in ``weights/``; nothing is downloaded.
"""

from .embedders import (
    DEFAULT_SEARCH,
    SEARCH_MODES,
    Embedder,
    HashingEmbedder,
    check_mode,
    embedder_for,
    single_threaded_blas,
)
from .embedding import MiniLMEmbedder

__all__ = [
    "DEFAULT_SEARCH",
    "SEARCH_MODES",
    "Embedder",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "check_mode",
    "embedder_for",
    "single_threaded_blas",
]
