"""MemorySync long-term memory for AG2-classic (``pip install autogen``) agents.

memory = MemorySyncCapability(user_id="customer-42", session_id="support-chat")
memory.add_to_agent(assistant)
"""

from .backend import MemoryHit, SaveResult
from .capability import MemorySyncCapability
from .recall import DEFAULT_CONTEXT_TEMPLATE
from .tools import register_memory_tools
from .writer import RetryPolicy

__all__ = [
    "DEFAULT_CONTEXT_TEMPLATE",
    "MemoryHit",
    "MemorySyncCapability",
    "RetryPolicy",
    "SaveResult",
    "register_memory_tools",
]
