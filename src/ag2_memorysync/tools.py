"""``search_memory`` / ``save_memory`` tools for the model, registered the way AG2's
``register_function`` does it (``register_for_llm`` on the caller, ``register_for_execution``
on the executor), duck-typed so this package still imports nothing from ``autogen``.

AG2 rebuilds the caller's model client when a tool is registered; register a custom
``ModelClient`` (``register_model_client``) after calling this, not before.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Annotated, Any

from .backend import MemoryHit, SaveResult, describe_failure
from .versions import INSTALL_HINT

if TYPE_CHECKING:
    from .capability import MemorySyncCapability

log = logging.getLogger("ag2_memorysync")

SEARCH_DESCRIPTION = "Look up what is remembered about the person from earlier conversations."
SAVE_DESCRIPTION = "Remember a durable fact about the person (a preference, a detail about them)."


def register_memory_tools(
    memory: MemorySyncCapability,
    *,
    caller: Any,
    executor: Any,
    search_name: str = "search_memory",
    save_name: str = "save_memory",
) -> None:
    """Let ``caller``'s model search and save memories; ``executor`` runs the calls.

    Args:
        memory: The capability whose person's memories the tools reach.
        caller: The AG2-classic agent whose model may call the tools.
        executor: The agent that runs the calls.
        search_name: The search tool's name.
        save_name: The save tool's name.
    """
    for role, agent, method in (
        ("caller", caller, "register_for_llm"),
        ("executor", executor, "register_for_execution"),
    ):
        if not callable(getattr(agent, method, None)):
            raise TypeError(
                f"register_memory_tools: {role} must be an AG2-classic ConversableAgent with {method}(), "
                f"got {type(agent).__name__}. {INSTALL_HINT}"
            )

    def search_memory(query: Annotated[str, "What to look up about the person"]) -> str:
        try:
            hits = memory.search(query)
        except Exception as exc:
            return search_failed(exc)
        return search_answer(hits)

    def save_memory(fact: Annotated[str, "One durable fact about the person, as a sentence"]) -> str:
        try:
            result = memory.save(fact)
        except Exception as exc:
            return save_failed(exc)
        return save_answer(result)

    caller.register_for_llm(name=search_name, description=SEARCH_DESCRIPTION)(search_memory)
    executor.register_for_execution(name=search_name)(search_memory)
    caller.register_for_llm(name=save_name, description=SAVE_DESCRIPTION)(save_memory)
    executor.register_for_execution(name=save_name)(save_memory)


# What the tools tell the model, shared with the ag2 1.x tools: a short sentence, never an error.


def search_answer(hits: list[MemoryHit]) -> str:
    if not hits:
        return "Nothing is remembered about that."
    return "\n".join(f"- {hit.text}" for hit in hits)


def search_failed(exc: BaseException) -> str:
    log.warning("search_memory tool failed: %s", describe_failure(exc))
    return "Memory search is unavailable right now; continue without it."


def save_answer(result: SaveResult) -> str:
    if result.status == "stored":
        return "Saved to memory."
    if result.status == "accepted":
        return "Accepted."
    if result.reason == "already_ingested":
        return "That is already remembered."
    return "Nothing worth remembering was found in that."


def save_failed(exc: BaseException) -> str:
    log.warning("save_memory tool failed: %s", describe_failure(exc))
    return "Could not save that to memory right now; continue without it."
