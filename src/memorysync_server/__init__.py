"""A local MemorySync server implementing openapi.yaml (issue 3).

``LocalServer`` runs it on a background thread; ``create_app`` builds the ASGI app;
``Quota`` simulates plan limits; ``Extractor``/``Embedder`` are the pluggable parts.
"""

from .app import create_app
from .auth import KeyRing
from .extract import Extractor, RuleExtractor
from .faults import Faults
from .launcher import LocalServer
from .quota import Quota
from .search import Embedder, HashingEmbedder

__all__ = [
    "Embedder",
    "Extractor",
    "Faults",
    "HashingEmbedder",
    "KeyRing",
    "LocalServer",
    "Quota",
    "RuleExtractor",
    "create_app",
]
