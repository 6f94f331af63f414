"""MemorySync long-term memory for AG2 agents, both lines.

AG2-classic (``pip install autogen``) ``ConversableAgent``:

    memory = MemorySyncCapability(user_id="customer-42", session_id="support-chat")
    memory.add_to_agent(assistant)

ag2 1.x (``pip install ag2``) ``Agent``:

    memory = MemorySyncMiddleware(user_id="customer-42", session_id="support-chat")
    agent = Agent("assistant", config=..., middleware=[memory], tools=memory.tools())

Importing this package imports neither ``autogen`` nor ``ag2``; the 1.x names import ``ag2``
when first used.
"""

from typing import TYPE_CHECKING, Any

from .backend import MemoryHit, SaveResult
from .capability import MemorySyncCapability
from .options import RecallOptions, WriteOptions
from .recall import DEFAULT_CONTEXT_TEMPLATE
from .tools import register_memory_tools
from .versions import check_installed as _check_installed
from .writer import RetryPolicy

if TYPE_CHECKING:
    from .v1 import MemorySyncMiddleware, memory_tools

_check_installed()

__all__ = [
    "DEFAULT_CONTEXT_TEMPLATE",
    "MemoryHit",
    "MemorySyncCapability",
    "MemorySyncMiddleware",
    "RecallOptions",
    "RetryPolicy",
    "SaveResult",
    "WriteOptions",
    "memory_tools",
    "register_memory_tools",
]

_V1_NAMES = ("MemorySyncMiddleware", "memory_tools")


def __getattr__(name: str) -> Any:
    if name not in _V1_NAMES:
        raise AttributeError(f"module 'ag2_memorysync' has no attribute {name!r}")
    try:
        from . import v1

        return getattr(v1, name)
    except ImportError as exc:
        if exc.name != "ag2" and not (exc.name or "").startswith("ag2."):
            raise
        raise ImportError(
            f"ag2_memorysync.{name} is for ag2 1.x agents and needs the ag2 package: "
            f"pip install 'memorysync-kit[ag2-v1]' (or pip install 'ag2>=1.2,<1.3')."
        ) from exc
