"""The MemorySync loop for ag2 1.x (``pip install ag2``) agents. Importing these names imports
``ag2``; ``ag2_memorysync`` itself re-exports them lazily.

The names load on first use so that attaching a capability to a 1.x agent (which imports
:mod:`.turn`) does not import the middleware class, which is built on the capability's own base:
no module imports one that imports it back.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .middleware import MemorySyncMiddleware
    from .tools import memory_tools
    from .turn import attach, detach

__all__ = ["MemorySyncMiddleware", "attach", "detach", "memory_tools"]

_HOMES = {"MemorySyncMiddleware": "middleware", "memory_tools": "tools", "attach": "turn", "detach": "turn"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'ag2_memorysync.v1' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{home}"), name)
