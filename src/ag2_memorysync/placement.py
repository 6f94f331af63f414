"""Where the memory block goes in the message list the model receives, and with which role.

Chat APIs constrain message order around tool use. OpenAI answers 400 when an assistant message
with ``tool_calls`` is not followed directly by one tool message per call id (and the same holds
for the legacy ``function_call`` and its ``function`` message); Gemini wants a function response
right after its function call, and Mistral turns a system message after an assistant message
into a user message, which then separates the call from its result. So the block never goes
inside a tool exchange: it goes right before the last message that is not a tool or function
result. For an ordinary message that is the message itself; after a tool round trip it is the
assistant message that opened the exchange. It stays near the end of the list either way, so
the history before it is an unchanged prefix for providers' prompt caching.

The role is ``system`` (Anthropic's client moves every system message into its ``system``
parameter, Gemini's and Mistral's turn a mid-list one into a user turn, OpenAI and Ollama keep
it where it is), except for Amazon Bedrock with system prompts on: its client sends only the
first system message and drops the rest, so there the block goes as a ``user`` message.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any


def is_result(message: Any) -> bool:
    """A tool or function result (AG2 keeps parallel results in one message's ``tool_responses``,
    which its OpenAI path unrolls into one tool message per call)."""
    return isinstance(message, dict) and (
        message.get("role") in ("tool", "function") or "tool_responses" in message
    )


def insertion_index(messages: list[Any]) -> int:
    """Index before which the block is inserted: the last message that is not a tool result."""
    i = len(messages) - 1
    while i > 0 and is_result(messages[i]):
        i -= 1
    return max(i, 0)


def inject(messages: list[dict[str, Any]], text: str, role: str = "system") -> list[dict[str, Any]]:
    """A deep copy of ``messages`` with the block inserted at :func:`insertion_index`; the
    stored history is never touched, and ``messages[-1]`` (which AG2's reply functions read for
    termination and tool calls) stays the last message."""
    out = copy.deepcopy(messages)
    out.insert(insertion_index(out), {"role": role, "content": text})
    return out


def block_role(agent: Any) -> str:
    """``"user"`` when the agent's model is reached through Bedrock with system prompts (which
    would drop a second system message), otherwise ``"system"``."""
    for entry in _config_entries(getattr(agent, "llm_config", None)):
        api_type = _get(entry, "api_type")
        if api_type == "bedrock" and _get(entry, "supports_system_prompts") is not False:
            return "user"
    return "system"


def _config_entries(llm_config: Any) -> Iterable[Any]:
    if not llm_config:
        return ()
    entries = _get(llm_config, "config_list")
    if entries:
        return tuple(entries)  # a list (dict config) or LLMConfig's entries, whichever AG2 line built it
    return (llm_config,) if _get(llm_config, "api_type") else ()


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(name)
    try:
        return getattr(obj, name, None)
    except Exception:  # a config object whose attribute access itself fails is not ours to judge
        return None
