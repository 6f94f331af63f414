"""Who spoke a message: roles follow the speaker, not the hook that saw the message.

A message is the person's turn when its speaker stands in for a person (a ``UserProxyAgent``,
``human_input_mode="ALWAYS"``, or ``"TERMINATE"`` with no model); any other agent is the AI.
Everything is duck-typed so the package never imports ``autogen``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

Role = Literal["human", "ai"]
RoleOverride = Callable[[Any], "Role | None"]


def speaks_for_person(agent: Any) -> bool:
    if any(cls.__name__ == "UserProxyAgent" for cls in type(agent).__mro__):
        return True
    mode = getattr(agent, "human_input_mode", None)
    if mode == "ALWAYS":
        return True
    return mode == "TERMINATE" and not getattr(agent, "llm_config", None)


def role_of(agent: Any, override: RoleOverride | None = None) -> Role:
    """``"human"`` or ``"ai"``; an unknown speaker (``None``) is taken to be the person, because an
    agent that cannot be identified is what a caller passing raw messages to ``generate_reply`` is."""
    if override is not None and agent is not None:
        chosen = override(agent)
        if chosen in ("human", "ai"):
            return chosen
    if agent is None:
        return "human"
    return "human" if speaks_for_person(agent) else "ai"


def sender_of(agent: Any, messages: list[dict[str, Any]]) -> Any | None:
    """The agent whose conversation ``messages`` is, as seen from ``agent``.

    ``generate_reply`` hands the hooks ``agent.chat_messages[sender]`` itself, so an identity match
    finds the sender without AG2 passing it; the last message's ``name`` is the fallback.
    """
    chats = getattr(agent, "chat_messages", None)
    if not isinstance(chats, dict):
        return None
    for other, history in chats.items():
        if history is messages:
            return other
    name = messages[-1].get("name") if messages and isinstance(messages[-1], dict) else None
    if name:
        for other in chats:
            if getattr(other, "name", None) == name:
                return other
    return None


def speaker_of(sender: Any | None, message: Any) -> Any | None:
    """The agent that actually said ``message``: a group chat manager only relays, and the
    message's ``name`` names the member who spoke."""
    if sender is None:
        return None
    name = message.get("name") if isinstance(message, dict) else None
    groupchat = getattr(sender, "groupchat", None)
    if name and groupchat is not None:
        for member in getattr(groupchat, "agents", ()) or ():
            if getattr(member, "name", None) == name:
                return member
    return sender
