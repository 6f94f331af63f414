"""A :class:`~ag2_memorysync.session.MemorySession` on ag2 1.x agents, as AG2 1.x middleware.

Middleware is the one 1.x seam that sees everything the loop needs: ``on_llm_call`` wraps every
model call (the first one of a turn and each one after tool results) and returns the model's
answer; ``on_human_input`` returns the person's answer to ``context.input``. Recall goes into
``context.prompt`` for the duration of one model call only (the way AG2's own assembly
middleware applies policies), so it reaches the model's request and never the stream's history,
never piles up, and never sits between a tool call and its results.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from ag2 import Context
from ag2.events import BaseEvent, HumanInputRequest, HumanMessage, ModelResponse
from ag2.middleware import BaseMiddleware, HumanInputHook, LLMCall
from ag2.middleware.describe import MiddlewareDescription

from ..session import MemorySession
from ..stack import callers
from .events import last_request_text, new_person_turns, spoken_count, utterance

log = logging.getLogger("ag2_memorysync")


class HasSession(Protocol):
    session: MemorySession


class Binding:
    """The middleware factory that puts ``memory``'s session on a 1.x agent."""

    def __init__(self, memory: HasSession) -> None:
        self.memory = memory

    def __call__(self, event: BaseEvent, context: Context) -> BaseMiddleware:
        return TurnMemory(event, context, self.memory.session)

    def describe(self) -> MiddlewareDescription:
        session = self.memory.session
        return MiddlewareDescription(
            kind=type(self.memory).__name__,
            config={"session_id": session.session_id, "top_k": session.recall_options.top_k},
        )


def _bound(entry: Any, memory: HasSession) -> bool:
    return entry is memory or (isinstance(entry, Binding) and entry.memory is memory)


def attach(memory: HasSession, agent: Any) -> None:
    """Add ``memory`` to a 1.x agent as its innermost middleware; a second attach does nothing.
    A middleware (callable) goes in as itself, anything else holding a session through a binding."""
    if any(_bound(entry.middleware, memory) for entry in agent.middleware):
        return
    agent.add_middleware(memory if callable(memory) else Binding(memory))


def detach(memory: HasSession, agent: Any) -> None:
    """Take ``memory`` off a 1.x agent (ag2 has no public remove, so its middleware list is edited)."""
    chain = getattr(agent, "_middleware", None)
    if isinstance(chain, list):
        chain[:] = [entry for entry in chain if not _bound(entry, memory)]


def delegated() -> bool:
    """Whether the agent turn being built runs as another agent's sub-task: ag2's ``run_task``
    (behind ``Agent.as_tool``) is on the call stack (await chains are), whichever agents carry
    this middleware. ag2 passes the sub-task no mark of its own."""
    return any(
        frame.f_code.co_name == "run_task" and str(frame.f_globals.get("__name__", "")).startswith("ag2.")
        for frame in callers()
    )


class TurnMemory(BaseMiddleware):
    """One agent turn's view of the memory: ag2 builds a middleware instance per turn."""

    def __init__(self, event: BaseEvent, context: Context, session: MemorySession) -> None:
        super().__init__(event, context)
        self.session = session
        # The request recalled on and its block: calls after tool results reuse it, the way the
        # classic hooks keep the context for a tool's result.
        self._recalled: tuple[str, str] | None = None
        # A sub-task another agent delegated (Agent.as_tool): its request is that agent's, not the
        # person's, and its answer goes back to that agent. It may recall (it works for the
        # person); what it is asked and answers is not the person's chat and is not captured.
        self.delegated = delegated()

    async def on_llm_call(
        self, call_next: LLMCall, events: Sequence[BaseEvent], context: Context
    ) -> ModelResponse:
        session = self.session
        if session.closed:
            return await call_next(events, context)
        started = session.clock()
        block, position = "", None
        try:
            history = list(await context.stream.history.get_events())
            position = spoken_count(history)
            if session.capture != "sent" and not self.delegated:
                for at, text in new_person_turns(history):
                    session.capture_turn("human", text, at)
            block = await self._block(history, started)
        except Exception:
            log.warning("MemorySync recall failed; the model call goes ahead without memories", exc_info=True)
        if block:
            original = context.prompt
            context.prompt = [*original, block]
            try:
                response = await call_next(events, context)
            finally:
                context.prompt = original
        else:
            response = await call_next(events, context)
        if (
            position is not None
            and session.capture != "received"
            and not session.closed
            and not self.delegated
        ):
            try:
                said = utterance(response)
                if said is not None:
                    session.capture_turn("ai", said[1], position)
            except Exception:
                log.warning("MemorySync capture failed; the chat continues", exc_info=True)
        return response

    async def on_human_input(
        self, call_next: HumanInputHook, event: HumanInputRequest, context: Context
    ) -> HumanMessage:
        answer = await call_next(event, context)
        session = self.session
        if session.closed or session.capture == "sent":
            return answer
        try:
            said = utterance(answer)
            if said is not None:
                # The answer is appended to the history right after this returns: that is its position.
                position = spoken_count(await context.stream.history.get_events())
                session.capture_turn("human", said[1], position)
        except Exception:
            log.warning("MemorySync capture failed; the chat continues", exc_info=True)
        return answer

    async def _block(self, history: list[BaseEvent], started: float) -> str:
        """The memory block for this request: recalled once, reused after its tool results."""
        session = self.session
        query = last_request_text(history)
        if len(query) < session.recall_options.min_prompt_chars:
            return ""
        if self._recalled is None or self._recalled[0] != query:
            context = await session.recaller.arecall(query, started)
            self._recalled = (query, context)
        context = self._recalled[1]
        return session.block(context) if context else ""
