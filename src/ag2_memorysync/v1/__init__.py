"""The MemorySync loop for ag2 1.x (``pip install ag2``) agents. Importing this imports ``ag2``;
``ag2_memorysync`` itself re-exports these names lazily."""

from .middleware import MemorySyncMiddleware, attach, detach
from .tools import memory_tools

__all__ = ["MemorySyncMiddleware", "attach", "detach", "memory_tools"]
