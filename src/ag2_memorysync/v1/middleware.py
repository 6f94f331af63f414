"""MemorySyncMiddleware: the MemorySync loop on ag2 1.x agents, as AG2 1.x middleware.

Middleware is the one 1.x seam that sees everything the loop needs: ``on_llm_call`` wraps every
model call (the first one of a turn and each one after tool results) and returns the model's
answer; ``on_human_input`` returns the person's answer to ``context.input``. Recall goes into
``context.prompt`` for the duration of one model call only (the way AG2's own assembly
middleware applies policies), so it reaches the model's request and never the stream's history,
never piles up, and never sits between a tool call and its results.

Everything behind the hooks is the classic capability's: the same connection, recall budget and
breaker, write queue, retries, dedup registry and idempotency keys.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ag2 import Context
from ag2.events import BaseEvent, HumanInputRequest, HumanMessage, ModelResponse
from ag2.middleware import BaseMiddleware, HumanInputHook, LLMCall
from ag2.middleware.describe import MiddlewareDescription

from ..capability import MemorySyncCapability
from ..recall import render
from .events import last_request_text, new_person_turns, spoken_count, utterance

if TYPE_CHECKING:
    from ag2.tools.final import FunctionTool

log = logging.getLogger("ag2_memorysync")


class MemorySyncMiddleware(MemorySyncCapability):
    """Long-term memory for ag2 1.x agents: ``Agent(..., middleware=[memory], tools=memory.tools())``.

    Takes the same arguments as :class:`MemorySyncCapability` and is one: ``search``/``save``/
    ``history``/``stats``/``flush``/``close`` and their async twins work the same, and the same
    object can also be added to AG2-classic agents with ``add_to_agent``. ``capture="received"``
    keeps only the person's turns, ``"sent"`` only the model's. ``speaker_role`` only applies to
    classic agents: on 1.x the event type says who spoke.
    """

    def __call__(self, event: BaseEvent, context: Context) -> BaseMiddleware:
        return TurnMemory(event, context, self)

    def describe(self) -> MiddlewareDescription:
        # Option names only: a description may be logged, and base_url/api_key are not its business.
        return MiddlewareDescription(
            kind=type(self).__qualname__,
            config={"session_id": self.session_id, "top_k": self.top_k, "capture": self.capture},
        )

    def tools(self) -> list[FunctionTool]:
        """``search_memory`` and ``save_memory`` as 1.x tools, for ``Agent(tools=...)``."""
        from .tools import memory_tools

        return memory_tools(self)


class _Binding:
    """The middleware factory ``MemorySyncCapability.add_to_agent`` adds to a 1.x agent."""

    def __init__(self, memory: MemorySyncCapability) -> None:
        self.memory = memory

    def __call__(self, event: BaseEvent, context: Context) -> BaseMiddleware:
        return TurnMemory(event, context, self.memory)

    def describe(self) -> MiddlewareDescription:
        return MiddlewareDescription(
            kind="MemorySyncCapability",
            config={"session_id": self.memory.session_id, "top_k": self.memory.top_k},
        )


def _bound(entry: Any, memory: MemorySyncCapability) -> bool:
    return entry is memory or (isinstance(entry, _Binding) and entry.memory is memory)


def attach(memory: MemorySyncCapability, agent: Any) -> None:
    """Add ``memory`` to a 1.x agent as its innermost middleware; a second attach does nothing."""
    if any(_bound(entry.middleware, memory) for entry in agent.middleware):
        return
    agent.add_middleware(memory if isinstance(memory, MemorySyncMiddleware) else _Binding(memory))


def detach(memory: MemorySyncCapability, agent: Any) -> None:
    """Take ``memory`` off a 1.x agent (ag2 has no public remove, so its middleware list is edited)."""
    chain = getattr(agent, "_middleware", None)
    if isinstance(chain, list):
        chain[:] = [entry for entry in chain if not _bound(entry, memory)]


class TurnMemory(BaseMiddleware):
    """One agent turn's view of the memory: ag2 builds a middleware instance per turn."""

    def __init__(self, event: BaseEvent, context: Context, memory: MemorySyncCapability) -> None:
        super().__init__(event, context)
        self.memory = memory
        # The request recalled on and its block: calls after tool results reuse it, the way the
        # classic capability keeps the context for a tool's result.
        self._recalled: tuple[str, str] | None = None

    async def on_llm_call(
        self, call_next: LLMCall, events: Sequence[BaseEvent], context: Context
    ) -> ModelResponse:
        memory = self.memory
        if memory.closed:
            return await call_next(events, context)
        started = memory._clock()
        block, position = "", None
        try:
            history = list(await context.stream.history.get_events())
            position = spoken_count(history)
            if memory.capture != "sent":
                for at, text in new_person_turns(history):
                    memory._capture_turn("human", text, at)
            block = await self._block(history, started)
        except Exception:
            log.warning("MemorySync recall failed; the model call goes ahead without memories", exc_info=True)
        if block:
            memory._stats.add("injected")
            original = context.prompt
            context.prompt = [*original, block]
            try:
                response = await call_next(events, context)
            finally:
                context.prompt = original
        else:
            response = await call_next(events, context)
        if position is not None and memory.capture != "received" and not memory.closed:
            try:
                said = utterance(response)
                if said is not None:
                    memory._capture_turn("ai", said[1], position)
            except Exception:
                log.warning("MemorySync capture failed; the chat continues", exc_info=True)
        return response

    async def on_human_input(
        self, call_next: HumanInputHook, event: HumanInputRequest, context: Context
    ) -> HumanMessage:
        answer = await call_next(event, context)
        memory = self.memory
        if memory.closed or memory.capture == "sent":
            return answer
        try:
            said = utterance(answer)
            if said is not None:
                # The answer is appended to the history right after this returns: that is its position.
                position = spoken_count(await context.stream.history.get_events())
                memory._capture_turn("human", said[1], position)
        except Exception:
            log.warning("MemorySync capture failed; the chat continues", exc_info=True)
        return answer

    async def _block(self, history: list[BaseEvent], started: float) -> str:
        memory = self.memory
        query = last_request_text(history)
        if len(query) < memory.min_prompt_chars:
            return ""
        if self._recalled is not None and self._recalled[0] == query:
            return self._recalled[1]
        context = await _arecall(memory, query, started)
        self._recalled = (query, render(memory.context_template, context) if context else "")
        return self._recalled[1]


async def _arecall(memory: MemorySyncCapability, query: str, started: float) -> str:
    """The capability's budgeted recall (same breaker, counters and warnings), awaited: the
    caller's event loop keeps running while the background loop waits for the server."""
    recaller = memory._recaller
    if recaller.remaining(started) <= 0:
        memory._stats.add("recall_failed")
        return ""
    return await recaller.await_(recaller.start(query), started)
