"""``MemorySyncDb``: agno's sync ``BaseDb``, memories only, stored in MemorySync."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, TypeVar

from agno.db.base import BaseDb
from agno.db.schemas.memory import UserMemory

from memorysync_core import shared_loop

from .memory_only import SYNC_WIRING, clear_all_refusal, memory_only_methods
from .ops import Plan
from .options import ConfiguredDb
from .policy import FAILURES

logger = logging.getLogger("agno_memorysync")

# Concrete raisers for every non-memory abstract of the installed agno, placed before BaseDb in
# the MRO so that ABCMeta sees them as implemented.
_MemoryOnly = type(
    "_MemoryOnly", (), memory_only_methods(BaseDb, class_name="MemorySyncDb", wiring=SYNC_WIRING)
)

T = TypeVar("T")


class MemorySyncDb(_MemoryOnly, ConfiguredDb, BaseDb):  # type: ignore[misc, valid-type]
    """agno user memories in MemorySync; sessions and everything else stay in your own agno db.

    ``Agent(db=SqliteDb(db_file="agent.db"), memory_manager=MemoryManager(db=MemorySyncDb()))``

    Safe to share between threads (agno extracts memories on background threads): every request
    runs on one background event loop, and each call waits for its own result with a hard total
    budget (``recall_timeout`` for reads, ``write_timeout`` for writes and deletes).

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

    _warned_loop = False

    # ---------------------------------------------------------------- the shell
    def _execute(self, plan: Plan[T]) -> T:
        self._warn_if_blocking_a_loop()
        try:
            return shared_loop().run(self._drive(plan, self._connection), self._budget(plan))
        except FAILURES as exc:
            return self._failed(plan, exc)

    def _warn_if_blocking_a_loop(self) -> None:
        if self._warned_loop:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._warned_loop = True
        logger.warning(
            "MemorySyncDb is being called on a thread that runs an event loop (Agent.arun with a sync "
            "memory db): each call blocks that loop for up to its budget. Use AsyncMemorySyncDb with an "
            "async agent db instead: Agent(db=AsyncSqliteDb(...), "
            "memory_manager=MemoryManager(db=AsyncMemorySyncDb()))."
        )

    # ---------------------------------------------------------------- reads
    def get_user_memories(
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
        """One user's memories, filtered, searched, sorted and paged, as agno's own backends do.

        ``search_content`` of 3+ characters is a MemorySync search (the user's 100 best matches
        scoring at least ``min_search_score``), ranked by relevance, followed by any literal
        (case-insensitive substring) match the ranking missed; shorter is the substring filter
        alone, as in agno's own backends. ``deserialize=False`` returns
        ``(rows, total_before_paging)``. ``user_id=None`` means ``default_user_id``.
        """
        return self._execute(
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

    def get_user_memory(
        self, memory_id: str, deserialize: bool | None = True, user_id: str | None = None
    ) -> UserMemory | dict[str, Any] | None:
        """One memory by its agno id, or None; ``user_id=None`` means ``default_user_id``."""
        return self._execute(
            self._ops.get_user_memory(
                memory_id=memory_id, deserialize=deserialize, user_id=self._scope_user(user_id)
            )
        )

    def get_all_memory_topics(self, user_id: str | None = None) -> list[str]:
        """Every topic of one user's memories (``default_user_id`` without ``user_id``)."""
        return self._execute(self._ops.get_all_memory_topics(user_id=self._scope_user(user_id)))

    def get_user_memory_stats(
        self, limit: int | None = None, page: int | None = None, user_id: str | None = None
    ) -> tuple[list[dict[str, Any]], int]:
        """Stats for one user (``default_user_id`` without ``user_id``): never a cross-user listing."""
        return self._execute(
            self._ops.get_user_memory_stats(limit=limit, page=page, user_id=self._scope_user(user_id))
        )

    # ---------------------------------------------------------------- writes
    def upsert_user_memory(
        self, memory: UserMemory, deserialize: bool | None = True
    ) -> UserMemory | dict[str, Any] | None:
        """Store ``memory`` (a copy: the argument is never modified) and return what was stored."""
        return self._execute(
            self._ops.upsert_user_memory(memory, deserialize=deserialize, user_id=self._scope_user(None))
        )

    def upsert_memories(
        self, memories: list[UserMemory], deserialize: bool | None = True, preserve_updated_at: bool = False
    ) -> list[UserMemory | dict[str, Any]]:
        """Store each of ``memories`` (copies) and return what was stored, in order."""
        return self._execute(
            self._ops.upsert_memories(
                memories,
                deserialize=deserialize,
                preserve_updated_at=preserve_updated_at,
                user_id=self._scope_user(None),
            )
        )

    # ---------------------------------------------------------------- deletes
    def delete_user_memory(self, memory_id: str, user_id: str | None = None) -> None:
        """Delete one memory and the facts derived from it; an id already gone is a no-op."""
        self._execute(
            self._ops.delete_user_memories(
                memory_ids=[memory_id], user_id=self._scope_user(user_id), must_exist=user_id is None
            )
        )

    def delete_user_memories(self, memory_ids: list[str], user_id: str | None = None) -> None:
        """Delete these memories and the facts derived from them; ids already gone are no-ops."""
        self._execute(
            self._ops.delete_user_memories(
                memory_ids=memory_ids, user_id=self._scope_user(user_id), must_exist=user_id is None
            )
        )

    def forget_user_memories(self, user_id: str) -> int:
        """Delete every memory of one user (and the derived facts); returns how many were deleted."""
        return self._execute(self._ops.forget_user_memories(user_id=user_id))

    def clear_memories(self) -> None:
        """Always raises ``MemorySyncClearAllError``: use ``forget_user_memories(user_id)``."""
        raise clear_all_refusal(type(self).__name__)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every write queued for a background retry was stored or given up (True), or
        ``timeout`` seconds passed (False)."""
        return self._retries.flush(timeout)

    def close(self, flush_timeout: float = 2.0) -> None:
        """Flush queued writes for up to ``flush_timeout`` seconds (what is left is counted lost and
        logged), then close the HTTP client (its connections live on the shared background loop)."""
        self._shutdown(flush_timeout)

    async def aclose(self, flush_timeout: float = 2.0) -> None:
        """``close()`` for async code: the caller's event loop keeps running meanwhile."""
        await asyncio.to_thread(self._shutdown, flush_timeout)
