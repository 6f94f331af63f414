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

    Takes the same arguments as :class:`~ag2_memorysync.MemorySyncCapability`:
    ``search``/``save``/``history``/``stats``/``flush``/``close`` and their async twins work the
    same, and the same object can also be added to AG2-classic agents with ``add_to_agent``.
    ``capture="received"`` keeps only the person's turns, ``"sent"`` only the model's.
    ``speaker_role`` only applies to classic agents: on 1.x the event type says who spoke.
    """

    def __call__(self, event: BaseEvent, context: Context) -> BaseMiddleware:
        return TurnMemory(event, context, self.session)

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
