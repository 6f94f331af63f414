"""``search_memory`` / ``save_memory`` in the form ag2 1.x tools take (``ag2.tool``), for
``Agent(tools=memory_tools(memory))``. They answer the model with a short sentence, never an error."""

# No ``from __future__ import annotations``: ag2 reads the tool signatures at runtime.
from typing import TYPE_CHECKING, Annotated

from ag2 import tool
from ag2.tools.final import FunctionTool
from pydantic import Field

from ..tools import (
    SAVE_DESCRIPTION,
    SEARCH_DESCRIPTION,
    save_answer,
    save_failed,
    search_answer,
    search_failed,
)

if TYPE_CHECKING:
    from ..front import MemoryFront


def memory_tools(
    memory: "MemoryFront", *, search_name: str = "search_memory", save_name: str = "save_memory"
) -> list[FunctionTool]:
    """The two memory tools bound to ``memory``, as ag2 1.x tools.

    Args:
        memory: A ``MemorySyncMiddleware`` or a capability.
        search_name: The search tool's name.
        save_name: The save tool's name.
    """

    async def search_memory(
        query: Annotated[str, Field(description="What to look up about the person")],
    ) -> str:
        try:
            hits = await memory.asearch(query)
        except Exception as exc:
            return search_failed(exc)
        return search_answer(hits)

    async def save_memory(
        fact: Annotated[str, Field(description="One durable fact about the person, as a sentence")],
    ) -> str:
        try:
            result = await memory.asave(fact)
        except Exception as exc:
            return save_failed(exc)
        return save_answer(result)

    return [
        tool(search_memory, name=search_name, description=SEARCH_DESCRIPTION),
        tool(save_memory, name=save_name, description=SAVE_DESCRIPTION),
    ]
