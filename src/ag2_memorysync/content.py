"""What a message says, and whether it is something a person or a model said at all.

AG2 messages arrive as plain strings or as dicts. Tool traffic (a model's tool-call request,
an executor's tool results) also carries text, and capturing it would turn a tool's output into
the person's words, so it is recognised here and never captured.
"""

from __future__ import annotations

from typing import Any

from memorysync_core import prepare_text

# AG2's own control words: "exit" ends a human turn, "TERMINATE" ends a chat. They steer the
# framework, they are not something the person or the model said.
CONTROL_WORDS = frozenset({"TERMINATE", "exit"})


def as_dict(message: Any) -> dict[str, Any]:
    """A message as a dict, without copying one that already is."""
    if isinstance(message, dict):
        return message
    return {"content": message}


def is_tool_traffic(message: Any) -> bool:
    """A tool/function call request or a tool/function result."""
    if not isinstance(message, dict):
        return False
    return (
        message.get("role") in ("tool", "function")
        or bool(message.get("tool_calls"))
        or bool(message.get("function_call"))
        or "tool_responses" in message
    )


def text_of(content: Any) -> str:
    """The text of a content value: a string as is, the text parts of a multimodal list joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            part["text"]
            for part in content
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
        ]
        return "\n".join(p for p in parts if p.strip())
    return ""


def spoken_text(message: Any) -> str:
    """The prepared (trimmed, truncated) words of a message, or ``""`` when it is not an utterance:
    tool traffic, empty or non-text content, and AG2's bare control words."""
    if is_tool_traffic(message):
        return ""
    text = prepare_text(text_of(as_dict(message).get("content")))
    return "" if text in CONTROL_WORDS else text
