"""The MemorySync calls the capability makes, as coroutines that run on the background loop,
and the recall also as a blocking call for a sync chat's own thread (:meth:`Backend.recall_now`).

The generated client's async httpx client binds to the loop that first uses it, so every
coroutine here must be awaited on the capability's loop thread and nowhere else.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from memorysync_client.api.health import health
from memorysync_client.api.history import append_history, list_history
from memorysync_client.api.memory import add_memory, query_memories, recall
from memorysync_client.api.org import list_projects
from memorysync_client.models import (
    AddMemoryAccepted,
    AddMemoryRequest,
    AddMemorySkipped,
    AppendHistoryRequest,
    AppendHistoryResponse,
    ListHistoryRequest,
    ListHistoryResponse,
    Memory,
    Metadata,
    QueryRequest,
    QueryResponse,
    RecallRequest,
    RecallResponse,
    Turn,
)
from memorysync_client.types import UNSET, Unset

from memorysync_core import Connection, MemorySyncError, acall, ainvoke, call, invoke, turn_seed

from .turns import turn_key

SOURCE = "ag2"


@dataclass(frozen=True)
class MemoryHit:
    """One memory found by ``MemorySyncCapability.search()``.

    Args:
        memory_id: The memory's id, ``m_<n>``.
        text: What the memory says.
        score: Its relevance to the query, in [0, 1].
        metadata: The memory's metadata (who wrote it, when it was said, where it came from).
        created_at: When it was stored (ISO 8601), when the server says.
    """

    memory_id: str
    text: str
    score: float
    metadata: dict[str, Any] = field(default_factory=dict)
    created_at: str | None = None


@dataclass(frozen=True)
class SaveResult:
    """What ``MemorySyncCapability.save()`` did.

    Args:
        status: ``stored``, ``skipped`` (with the reason), or ``accepted`` (the server took it
            without saying what it kept, as over a silent plan limit).
        memory_ids: The ids of the memories the save made (or found already made).
        reason: Why nothing was stored, for ``skipped``.
    """

    status: str
    memory_ids: list[str] = field(default_factory=list)
    reason: str | None = None


@dataclass(frozen=True)
class PendingTurn:
    """A captured turn waiting in the write queue.

    Its keys are derived from it when it is first sent, on the loop thread: the seed's FNV hash
    runs in Python over every character (~10 µs for a short sentence, far more for a long reply),
    and the capture hook, on the chat's thread, should only queue the turn."""

    role: str  # "user" | "assistant"
    content: str
    scope: str  # the session scope, part of the extraction seed
    dedup_key: Hashable
    seq: int
    run: str | None = None  # the conversation run's token (ag2_memorysync.turns); None: no position
    position: int | None = None

    @cached_property
    def speaker(self) -> str:
        """The content-based extraction seed (openapi.yaml: Turn.speaker)."""
        return turn_seed("human" if self.role == "user" else "ai", self.scope, self.content)

    @cached_property
    def idempotency_key(self) -> str:
        """The transcript row's key: one per turn, reused by every retry."""
        if self.run is None or self.position is None:
            return self.speaker  # no position known: content alone identifies the turn
        return turn_key(self.speaker, self.run, self.position)


class Backend:
    def __init__(
        self,
        connection: Connection,
        *,
        user_id: str,
        session_scope: str,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        self.connection = connection
        self.user_id = user_id
        self.session_scope = session_scope
        self._metadata = dict(metadata or {})

    async def warm(self) -> None:
        """Open the pooled connection (TCP + TLS) and learn the tenant before the first reply."""
        if self.connection.tenants.cached is None:
            await self.connection.atenant_id()
        else:  # tenant given: any cheap call opens the connection; its answer does not matter
            await ainvoke(list_projects.asyncio_detailed, client=self.connection.client)

    def warm_now(self) -> None:
        """Open the sync client's pooled connection too, on the calling thread: a sync chat's
        recall goes out over it (:meth:`recall_now`). Any answer will do."""
        invoke(health.sync_detailed, client=self.connection.client, deadline=time.monotonic() + 5.0)

    async def recall(self, prompt: str, k: int) -> str:
        tenant = await self.connection.atenant_id()
        body = RecallRequest(tenant_id=tenant, user_id=self.user_id, prompt=prompt, k=k)
        answer = await acall(
            recall.asyncio_detailed, client=self.connection.client, body=body, expect=RecallResponse
        )
        return answer.context.strip()

    def recall_now(self, prompt: str, k: int, deadline: float) -> str:
        """:meth:`recall` over the sync client on the calling thread, ending by ``deadline``
        (``time.monotonic()``): a sync chat's thread would only wait for the loop's answer, and
        the hop there and back costs two thread wake-ups and GIL hand-offs per recall. Needs the
        tenant known (the warm-up learns it)."""
        tenant = self.connection.tenants.cached
        if tenant is None:
            raise MemorySyncError("recall: the tenant is not known yet; recall on the loop to discover it")
        body = RecallRequest(tenant_id=tenant, user_id=self.user_id, prompt=prompt, k=k)
        answer = call(
            recall.sync_detailed,
            client=self.connection.client,
            body=body,
            deadline=deadline,
            expect=RecallResponse,
        )
        return answer.context.strip()

    async def query(self, prompt: str, k: int) -> list[MemoryHit]:
        tenant = await self.connection.atenant_id()
        body = QueryRequest(tenant_id=tenant, user_id=self.user_id, prompt=prompt, k=k)
        answer = await acall(
            query_memories.asyncio_detailed, client=self.connection.client, body=body, expect=QueryResponse
        )
        return [
            MemoryHit(
                memory_id=m.memory_id,
                text=m.text,
                score=m.score,
                metadata=m.metadata.to_dict(),
                created_at=m.created_at.isoformat(),
            )
            for m in answer.memories
        ]

    async def add(self, text: str, client_ref: str) -> SaveResult:
        body = AddMemoryRequest(
            text=text,
            source=SOURCE,
            session_id=self.session_scope,
            client_ref=client_ref,
            metadata=self._meta(),
        )
        answer = await acall(
            add_memory.asyncio_detailed,
            client=self.connection.client,
            body=body,
            x_end_user_id=self.user_id,
            expect=(Memory, AddMemoryAccepted, AddMemorySkipped),
        )
        if isinstance(answer, AddMemoryAccepted):
            # The server took it without saying what it kept (a plan limit in silent mode).
            return SaveResult(status="accepted")
        if isinstance(answer, AddMemorySkipped):
            return SaveResult(
                status="skipped",
                memory_ids=[f"m_{i}" for i in answer.memory_ids],
                reason=str(answer.reason),
            )
        return SaveResult(status="stored", memory_ids=[f"m_{answer.id}"])

    async def append(self, turns: list[PendingTurn]) -> str:
        """Append ``turns`` to the session transcript; returns the answer's ``status``."""
        tenant = await self.connection.atenant_id()
        body = AppendHistoryRequest(
            tenant_id=tenant,
            user_id=self.user_id,
            session_id=self.session_scope,
            source=SOURCE,
            extract=True,
            turns=[
                Turn(
                    role=t.role,
                    content=t.content,
                    seq=t.seq,
                    idempotency_key=t.idempotency_key,
                    speaker=t.speaker,
                )
                for t in turns
            ],
            metadata=self._meta(),
        )
        answer = await acall(
            append_history.asyncio_detailed,
            client=self.connection.client,
            body=body,
            expect=AppendHistoryResponse,
        )
        return str(answer.status)

    async def transcript(self) -> list[dict[str, Any]]:
        tenant = await self.connection.atenant_id()
        body = ListHistoryRequest(
            tenant_id=tenant, user_id=self.user_id, session_id=self.session_scope, limit=0
        )
        answer = await acall(
            list_history.asyncio_detailed,
            client=self.connection.client,
            body=body,
            expect=ListHistoryResponse,
        )
        return [
            {
                "id": t.id,
                "role": t.role,
                "content": t.content,
                "source": t.source,
                "created_at": t.created_at.isoformat(),
            }
            for t in answer.items
        ]

    async def aclose(self) -> None:
        await self.connection.aclose()

    def _meta(self) -> Metadata | Unset:
        return Metadata.from_dict(self._metadata) if self._metadata else UNSET


def describe_failure(exc: BaseException) -> str:
    """A one-line reason for a log or a tool answer, never a stack trace."""
    if isinstance(exc, MemorySyncError):
        if exc.limit_exceeded:
            return "the MemorySync plan limit is reached"
        return str(exc)
    if isinstance(exc, TimeoutError):
        return "no answer within the time budget"
    return f"{type(exc).__name__}: {exc}"
