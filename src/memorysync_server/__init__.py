"""A local MemorySync server implementing openapi.yaml.

``LocalServer`` runs it on a background thread; ``create_app`` builds the ASGI app;
``Quota`` simulates plan limits; ``Extractor``/``Embedder`` are the pluggable parts.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

# Say which extra brings a missing dependency instead of a bare ModuleNotFoundError; found, not
# imported: importing the package stays cheap (the CLI's parent process of --workers never
# builds an app, and each export below is imported on first use).
for _dependency in ("numpy", "starlette", "uvicorn", "yaml"):
    if importlib.util.find_spec(_dependency) is None:
        raise ImportError(
            f"memorysync_server needs {_dependency!r}: install the server extra, pip install 'memorysync-kit[server]'",
            name=_dependency,
        )

_EXPORTS = {
    "create_app": ".app",
    "MiniLMEmbedder": ".model",
    "Extractor": ".extraction",
    "RuleExtractor": ".extraction",
    "KeyRing": ".http.auth",
    "Faults": ".http.faults",
    "Quota": ".http.quota",
    "LocalServer": ".launcher",
    "SEARCH_MODES": ".model",
    "Embedder": ".model",
    "HashingEmbedder": ".model",
}

if TYPE_CHECKING:
    from .app import create_app
    from .extraction import Extractor, RuleExtractor
    from .http.auth import KeyRing
    from .http.faults import Faults
    from .http.quota import Quota
    from .launcher import LocalServer
    from .model import SEARCH_MODES, Embedder, HashingEmbedder
    from .model.embedding import MiniLMEmbedder


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


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
