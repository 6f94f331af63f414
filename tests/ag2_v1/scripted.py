"""Real ag2 1.x agents whose model is ag2's own scripted one (``ag2.testing``), plus a
middleware that records exactly what each model call was handed.

``Spy`` is ordinary ag2 middleware placed innermost, right before the model: what it records is
the request the model received (the events and the system prompt), not what a hook returned.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ag2 import Agent, Context
from ag2.events import BaseEvent, ToolCallEvent
from ag2.middleware import BaseMiddleware
from ag2.testing import TestConfig, Turn


@dataclass
class ModelCall:
    events: list[BaseEvent]
    prompt: list[str]


@dataclass
class Spy:
    """A middleware factory recording every model call of the agents it is on."""

    calls: list[ModelCall] = field(default_factory=list)

    def __call__(self, event: BaseEvent, context: Context) -> BaseMiddleware:
        return _SpyTurn(event, context, self)

    def prompt_text(self, call: int) -> str:
        return "\n".join(self.calls[call].prompt)


class _SpyTurn(BaseMiddleware):
    def __init__(self, event: BaseEvent, context: Context, spy: Spy) -> None:
        super().__init__(event, context)
        self.spy = spy

    async def on_llm_call(self, call_next, events: Sequence[BaseEvent], context: Context):
        self.spy.calls.append(ModelCall(list(events), list(context.prompt)))
        return await call_next(events, context)


def call_tool(name: str, **arguments: Any) -> ToolCallEvent:
    return ToolCallEvent(name, arguments=json.dumps(arguments))


def agent(
    turns: Iterable[Turn],
    *,
    memory: Any = None,
    name: str = "assistant",
    prompt: str = "You are a helpful travel assistant.",
    tools: Iterable[Any] = (),
    **kwargs: Any,
) -> tuple[Agent, Spy]:
    """An ``ag2.Agent`` answering ``turns`` in order, with ``memory`` (if any) as its middleware
    and the spy innermost."""
    spy = Spy()
    middleware = [memory, spy] if memory is not None else [spy]
    bot = Agent(name, prompt, config=TestConfig(*turns), middleware=middleware, tools=list(tools), **kwargs)
    return bot, spy
