"""What an ag2 1.x event says, who said it, and where it stands in the conversation.

The person speaks through a ``ModelRequest`` (the caller's message, or input drained from the
stream's inbox) and a ``HumanMessage`` (an answer to ``context.input``); the model speaks through
a ``ModelResponse`` with text. A response that calls tools, a tool's ``final`` result standing in
for a response, and every tool event are tool traffic: never captured, never counted.

A turn's position is the number of spoken turns before it in the stream's history. Agents that
share a stream (or see the same request) count alike, so the same message gets the same position.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ag2.events import BaseEvent, HumanMessage, ModelRequest, ModelResponse, TextInput

from ..content import spoken_text
from ..roles import Role


def utterance(event: BaseEvent) -> tuple[Role, str] | None:
    """``(role, prepared text)`` for a spoken turn, ``None`` for anything else."""
    if isinstance(event, ModelRequest):
        raw = "\n".join(p.content for p in event.parts if isinstance(p, TextInput) and p.content.strip())
        role: Role = "human"
    elif isinstance(event, HumanMessage):
        raw, role = event.content, "human"
    elif isinstance(event, ModelResponse):
        if event.tool_calls or event.response_force or not event.content:
            return None
        raw, role = event.content, "ai"
    else:
        return None
    text = spoken_text({"content": raw})
    return (role, text) if text else None


def spoken_count(events: Iterable[BaseEvent]) -> int:
    """How many spoken turns ``events`` holds: the position of the next one."""
    return sum(1 for event in events if utterance(event) is not None)


def new_person_turns(history: Sequence[BaseEvent]) -> list[tuple[int, str]]:
    """``(position, text)`` of the person's turns since the model last answered: what this model
    call is the first to see. Earlier turns were captured by the call that saw them first."""
    start = 0
    for index in range(len(history) - 1, -1, -1):
        if isinstance(history[index], ModelResponse):
            start = index + 1
            break
    position = spoken_count(history[:start])
    turns: list[tuple[int, str]] = []
    for event in history[start:]:
        said = utterance(event)
        if said is None:
            continue
        if said[0] == "human":
            turns.append((position, said[1]))
        position += 1
    return turns


def last_request_text(history: Sequence[BaseEvent]) -> str:
    """The text of the person's latest request: what recall is about, also after tool results."""
    for event in reversed(history):
        if isinstance(event, ModelRequest):
            said = utterance(event)
            if said is not None:
                return said[1]
    return ""
