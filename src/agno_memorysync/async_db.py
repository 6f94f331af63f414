"""``AsyncMemorySyncDb``: agno's ``AsyncBaseDb``, memories only, stored in MemorySync.

agno takes its async memory path only when the *agent's* ``db`` is async too
(``agno.agent._init.has_async_db``), so wire it as ``Agent(db=AsyncSqliteDb(...), memory_manager=MemoryManager(db=AsyncMemorySyncDb()))``
and use ``arun``. A miswired call raises or logs a message naming that fix (see ``miswiring``).
"""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

from agno.db.base import AsyncBaseDb
from agno.db.schemas.memory import UserMemory

from memorysync_core import shared_loop

from .memory_only import ASYNC_WIRING, clear_all_refusal, memory_only_methods
from .miswiring import guarded
from .ops import Plan
from .options import ConfiguredDb
from .policy import FAILURES

_MemoryOnly = type(
    "_MemoryOnly", (), memory_only_methods(AsyncBaseDb, class_name="AsyncMemorySyncDb", wiring=ASYNC_WIRING)
)

T = TypeVar("T")


class AsyncMemorySyncDb(_MemoryOnly, ConfiguredDb, AsyncBaseDb):  # type: ignore[misc, valid-type]
    """The async twin of ``MemorySyncDb``: same options, same behaviour, awaited.

    Each read is bounded by ``recall_timeout`` and each write or delete by ``write_timeout``, so
    a slow server never holds a run longer than that. The requests run on the kit's background
    loop and are awaited from yours, which keeps running meanwhile; any number of event loops
    (one ``asyncio.run`` after another) share the one connection.

    Args:
        api_key: The MemorySync key; None reads ``MEMORYSYNC_API_KEY``.
        base_url: The server; None reads ``MEMORYSYNC_BASE_URL``, else hosted MemorySync.
        project_id: The project to pin (``X-Project-ID``), or None for the key's default project.
        tenant_id: The tenant, or None to discover it once from the key.
        default_user_id: The user of a call agno makes with ``user_id=None``.
        recall_timeout: The total budget of a read in seconds; past it the read returns no
            memories (logged).
        write_timeout: The total budget of a write or delete in seconds.
        fail_open_writes: True: a write that failed for a passing reason (no answer, a 5xx, a
            429) is queued for a background retry; False: it raises.
        source: The source label of every row it writes (rows are scoped by source).
        min_search_score: The relevance floor of a ``search_content`` search (0 to 1).
        id: agno's id of this db (generated when None).
        transport: An ``httpx.AsyncBaseTransport`` for every request (tests, proxies).
        clock: Monotonic seconds for the budgets and retries (injected by tests).
        retry_for: Seconds a queued write is retried before it is given up (counted and logged).
        max_pending_writes: Queued writes held at most; a failed write beyond that is dropped
            (counted and logged).

    Raises:
        ValueError: No API key, or a setting out of range; the message names it.
    """

    # ---------------------------------------------------------------- the shell
    async def _execute(self, plan: Plan[T]) -> T:
        try:
            return await shared_loop().arun(self._drive(plan, self._connection), self._budget(plan))
        except FAILURES as exc:
            return self._failed(plan, exc)

    # ---------------------------------------------------------------- reads
    @guarded
    async def get_user_memories(
        self,
        user_id: str | None = None,
        agent_id: str | None = None,
        team_id: str | None = None,
        topics: list[str] | None = None,
        search_content: str | None = None,
        limit: int | None = None,
        page: int | None = None,
        sort_by: str | None = None,
        sort_order: str | None = None,
        deserialize: bool | None = True,
    ) -> list[UserMemory] | tuple[list[dict[str, Any]], int]:
        """Same as ``MemorySyncDb.get_user_memories``, awaited."""
        return await self._execute(
            self._ops.get_user_memories(
                user_id=self._scope_user(user_id),
                agent_id=agent_id,
                team_id=team_id,
                topics=topics,
                search_content=search_content,
                limit=limit,
                page=page,
                sort_by=sort_by,
                sort_order=sort_order,
                deserialize=deserialize,
            )
        )

    @guarded
    async def get_user_memory(
        self, memory_id: str, deserialize: bool | None = True, user_id: str | None = None
    ) -> UserMemory | dict[str, Any] | None:
        """One memory by its agno id, or None; ``user_id=None`` means ``default_user_id``."""
        return await self._execute(
            self._ops.get_user_memory(
                memory_id=memory_id, deserialize=deserialize, user_id=self._scope_user(user_id)
            )
        )

    @guarded
    async def get_all_memory_topics(self, user_id: str | None = None) -> list[str]:
        """Every topic of one user's memories (``default_user_id`` without ``user_id``)."""
        return await self._execute(self._ops.get_all_memory_topics(user_id=self._scope_user(user_id)))

    @guarded
    async def get_user_memory_stats(
        self, limit: int | None = None, page: int | None = None, user_id: str | None = None
    ) -> tuple[list[dict[str, Any]], int]:
        """Stats for one user (``default_user_id`` without ``user_id``): never a cross-user listing."""
        return await self._execute(
            self._ops.get_user_memory_stats(limit=limit, page=page, user_id=self._scope_user(user_id))
        )

    # ---------------------------------------------------------------- writes
    @guarded
    async def upsert_user_memory(
        self, memory: UserMemory, deserialize: bool | None = True
    ) -> UserMemory | dict[str, Any] | None:
        """Store ``memory`` (a copy: the argument is never modified) and return what was stored."""
        return await self._execute(
            self._ops.upsert_user_memory(memory, deserialize=deserialize, user_id=self._scope_user(None))
        )

    @guarded
    async def upsert_memories(
        self, memories: list[UserMemory], deserialize: bool | None = True, preserve_updated_at: bool = False
    ) -> list[UserMemory | dict[str, Any]]:
        """Store each of ``memories`` (copies) and return what was stored, in order."""
        return await self._execute(
            self._ops.upsert_memories(
                memories,
                deserialize=deserialize,
                preserve_updated_at=preserve_updated_at,
                user_id=self._scope_user(None),
            )
        )

    # ---------------------------------------------------------------- deletes
    @guarded
    async def delete_user_memory(self, memory_id: str, user_id: str | None = None) -> None:
        """Delete one memory and the facts derived from it; an id already gone is a no-op."""
        await self._execute(
            self._ops.delete_user_memories(
                memory_ids=[memory_id], user_id=self._scope_user(user_id), must_exist=user_id is None
            )
        )

    @guarded
    async def delete_user_memories(self, memory_ids: list[str], user_id: str | None = None) -> None:
        """Delete these memories and the facts derived from them; ids already gone are no-ops."""
        await self._execute(
            self._ops.delete_user_memories(
                memory_ids=memory_ids, user_id=self._scope_user(user_id), must_exist=user_id is None
            )
        )

    @guarded
    async def forget_user_memories(self, user_id: str) -> int:
        """Delete every memory of one user (and the derived facts); returns how many were deleted."""
        return await self._execute(self._ops.forget_user_memories(user_id=user_id))

    def clear_memories(self) -> Any:
        """Always raises ``MemorySyncClearAllError`` (at call time, awaited or not)."""
        raise clear_all_refusal(type(self).__name__)

    async def flush(self, timeout: float | None = None) -> bool:
        """Wait until every write queued for a background retry was stored or given up (True), or
        ``timeout`` seconds passed (False). The event loop keeps running meanwhile."""
        return await self._retries.aflush(timeout)

    async def close(self, flush_timeout: float = 2.0) -> None:
        """Flush queued writes for up to ``flush_timeout`` seconds (what is left is counted lost and
        logged), then close the HTTP client. The event loop keeps running meanwhile."""
        await asyncio.to_thread(self._shutdown, flush_timeout)

    aclose = close
