"""MemorySyncMiddleware: the MemorySync loop on ag2 1.x agents, passed in ``Agent(middleware=[...])``.

It holds a :class:`~ag2_memorysync.session.MemorySession` like the classic capability does, so
the connection, recall budget and breaker, write queue, retries, dedup registry and idempotency
keys are the same; the per-turn work is :class:`~ag2_memorysync.v1.turn.TurnMemory`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ag2 import Context
from ag2.events import BaseEvent
from ag2.middleware import BaseMiddleware
from ag2.middleware.describe import MiddlewareDescription

from ..front import MemoryFront
from .turn import TurnMemory

if TYPE_CHECKING:
    from ag2.tools.final import FunctionTool


class MemorySyncMiddleware(MemoryFront):
    """Long-term memory for ag2 1.x agents: ``Agent(..., middleware=[memory], tools=memory.tools())``.

    Takes the same arguments as ``MemorySyncCapability``: ``search``/``save``/``history``/
    ``stats``/``flush``/``close`` and their async twins work the same, and the same object can
    also be added to AG2-classic agents with ``add_to_agent``. ``capture="received"`` keeps only
    the person's turns, ``"sent"`` only the model's. ``speaker_role`` only applies to classic
    agents: on 1.x the event type says who spoke.

    Args:
        user_id: The person the memories belong to (required).
        session_id: Names the session transcript, ``ag2::<session_id>``.
        api_key: The MemorySync key; default ``MEMORYSYNC_API_KEY``.
        base_url: The server; default ``MEMORYSYNC_BASE_URL``, else the hosted service.
        project_id: The project, to skip its discovery.
        tenant_id: The tenant, to skip its discovery.
        recall: Every recall setting as one ``RecallOptions`` value (the circuit breaker's too).
        writes: Every write setting as one ``WriteOptions`` value: ``max_pending_writes``,
            ``retry``, ``exit_flush_timeout``.
        top_k: Memories recalled before a reply (5).
        recall_timeout: Seconds a reply waits for its recall at most (1.2).
        min_prompt_chars: Shorter messages are not recalled on (8).
        context_template: Where the memories go in the model's prompt; ``{context}`` is replaced
            literally.
        capture: ``"both"`` (what attached agents send and receive), ``"sent"`` or ``"received"``.
        metadata: Scalars copied onto the facts extracted from the captured turns.
        speaker_role: ``agent -> "human" | "ai" | None``: who speaks for the person (classic agents).
        request_timeout: Seconds for one HTTP call outside the recall budget (10).
        transport: An httpx async transport, for tests and embedding.
        clock: The monotonic clock budgets are measured with.
        loop: The ``memorysync_core.LoopThread`` the I/O runs on (default: one shared per process).
        dedup: The registry that makes two sightings of one message one turn.
    """

    def __call__(self, event: BaseEvent, context: Context) -> BaseMiddleware:
        return TurnMemory(event, context, self.session)

    def describe(self) -> MiddlewareDescription:
        """What ag2 shows of this middleware: its session, ``top_k`` and ``capture`` (no key or URL)."""
        # Option names only: a description may be logged, and base_url/api_key are not its business.
        return MiddlewareDescription(
            kind=type(self).__qualname__,
            config={"session_id": self.session_id, "top_k": self.top_k, "capture": self.capture},
        )

    def tools(self) -> list[FunctionTool]:
        """``search_memory`` and ``save_memory`` as 1.x tools, for ``Agent(tools=...)``."""
        from .tools import memory_tools

        return memory_tools(self)
