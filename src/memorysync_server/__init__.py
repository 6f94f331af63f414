"""A local MemorySync server implementing openapi.yaml.

``LocalServer`` runs it on a background thread; ``create_app`` builds the ASGI app;
``Quota`` simulates plan limits; ``Extractor``/``Embedder`` are the pluggable parts.
"""

try:
    import numpy  # noqa: F401
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
    import yaml  # noqa: F401
except ImportError as exc:  # say which extra brings them instead of a bare ModuleNotFoundError
    raise ImportError(
        f"memorysync_server needs {exc.name!r}: install the server extra, pip install 'memorysync-kit[server]'"
    ) from exc

from .app import create_app
from .embedding import MiniLMEmbedder
from .extract import Extractor, RuleExtractor
from .http.auth import KeyRing
from .http.faults import Faults
from .http.quota import Quota
from .launcher import LocalServer
from .retrieval import SEARCH_MODES, Embedder, HashingEmbedder

__all__ = [
    "SEARCH_MODES",
    "Embedder",
    "Extractor",
    "Faults",
    "HashingEmbedder",
    "KeyRing",
    "LocalServer",
    "MiniLMEmbedder",
    "Quota",
    "RuleExtractor",
    "create_app",
]
