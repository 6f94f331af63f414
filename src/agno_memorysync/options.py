"""The configuration both db classes take, validated once at construction."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import httpx

from memorysync_core import Connection, Settings, exits, resolve_settings, retryable, shared_loop

from .ops import MemoryOps, Plan, drive
from .policy import Policy
from .retry import RetryQueue
from .scope import scoped

logger = logging.getLogger("agno_memorysync")
T = TypeVar("T")


@dataclass(frozen=True)
class Options:
    settings: Settings
    tenant_id: str | None
    policy: Policy
    ops: MemoryOps
    transport: httpx.AsyncBaseTransport | None = field(default=None, repr=False)

    @classmethod
    def build(
        cls,
        *,
        class_name: str,
        api_key: str | None,
        base_url: str | None,
        project_id: str | None,
        tenant_id: str | None,
        default_user_id: str,
        recall_timeout: float,
        write_timeout: float,
        fail_open_writes: bool,
        source: str,
        min_search_score: float,
        transport: httpx.AsyncBaseTransport | None,
        clock: Callable[[], float] | None,
    ) -> Options:
        if transport is not None and not isinstance(transport, httpx.AsyncBaseTransport):
            # Both classes do their I/O with the async httpx client (the sync one on a background
            # loop, so that every call has a hard total budget).
            raise TypeError(
                f"{class_name}(transport=...) must be an httpx.AsyncBaseTransport (e.g. "
                f"httpx.AsyncHTTPTransport(...) or httpx.MockTransport(handler)), got {type(transport).__name__}"
            )
        if tenant_id is not None and (not isinstance(tenant_id, str) or not tenant_id.strip()):
            raise ValueError("tenant_id must be a non-empty string, or None to discover it from the API key")
        if not isinstance(fail_open_writes, bool):
            raise TypeError(f"fail_open_writes must be True or False, got {fail_open_writes!r}")
        return cls(
            settings=resolve_settings(api_key, base_url, project_id),
            tenant_id=tenant_id,
            policy=Policy(
                recall_timeout=recall_timeout, write_timeout=write_timeout, fail_open_writes=fail_open_writes
            ),
            ops=MemoryOps(
                source=source,
                default_user_id=default_user_id,
                clock=clock or time.time,
                min_search_score=min_search_score,
            ),
            transport=transport,
        )

    def connection(self) -> Connection:
        """A new connection (its clients are built here, on the caller's thread)."""
        return Connection(
            api_key=self.settings.api_key,
            base_url=self.settings.base_url,
            project_id=self.settings.project_id,
            tenant_id=self.tenant_id,
            # Per phase; the whole operation is bounded by the policy's budget on top of this.
            timeout=self.policy.write_timeout,
            async_transport=self.transport,
        )


class ConfiguredDb:
    """Everything both twins share (a mixin placed before agno's ``BaseDb`` / ``AsyncBaseDb``):
    the constructor, the connection, the retry queue, failure handling, closing and exit.

    Both twins do their I/O on the core's shared background loop, with one connection: the sync
    one waits there with a hard total budget, the async one awaits it from the caller's loop
    (which keeps running). No HTTP client is ever bound to a caller's loop, so none is left
    behind when that loop ends, and interpreter exit closes the one client cleanly."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        project_id: str | None = None,
        tenant_id: str | None = None,
        default_user_id: str = "default",
        recall_timeout: float = 1.2,
        write_timeout: float = 10.0,
        fail_open_writes: bool = True,
        source: str = "agno",
        min_search_score: float = 0.15,
        id: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] | None = None,
        retry_for: float = 300.0,
        max_pending_writes: int = 1000,
    ) -> None:
        super().__init__(id=id)  # type: ignore[call-arg]  # agno's BaseDb / AsyncBaseDb
        self._options = Options.build(
            class_name=type(self).__name__,
            api_key=api_key,
            base_url=base_url,
            project_id=project_id,
            tenant_id=tenant_id,
            default_user_id=default_user_id,
            recall_timeout=recall_timeout,
            write_timeout=write_timeout,
            fail_open_writes=fail_open_writes,
            source=source,
            min_search_score=min_search_score,
            transport=transport,
            clock=clock,
        )
        self._ops = self._options.ops
        self._policy = self._options.policy
        self._connection = self._options.connection()
        self._retries = RetryQueue(
            ops=self._ops,
            connection=self._connection,
            write_timeout=self._policy.write_timeout,
            max_pending=max_pending_writes,
            retry_for=retry_for,
        )
        self._exit = _AtExit(self._retries, self._connection)
        exits.register(self._exit)
        self._close_when_dropped = exits.close_when_dropped(self, self._connection.aclose)

    # ---------------------------------------------------------------- shared by both shells
    async def _drive(self, plan: Plan[T], connection: Connection) -> T:
        """Run ``plan``, after taking the memories it writes or deletes out of the retry queue
        (and waiting for a retry of them in flight), so no older write lands after it."""
        keys = plan.keys or [(value["user_id"], value["memory_id"]) for value, _ in plan.writes]
        waits = self._retries.settle(keys)
        if waits:
            await asyncio.gather(*(asyncio.wrap_future(w) for w in waits))
        return await drive(plan.steps, connection)

    def _failed(self, plan: Plan[T], exc: BaseException) -> T:
        """A write that failed for a passing reason is queued for a retry and answered with what it
        will store; everything else goes to the policy (fail open, or raise)."""
        if plan.kind == "write" and self._policy.fail_open_writes and plan.writes and retryable(exc):
            accepted = {id(v) for v in self._retries.add(plan.writes)}
            if accepted:
                logger.warning(
                    "MemorySync %s failed (%s); %d write(s) queued and retried in the background. "
                    "flush() waits for them.",
                    plan.what,
                    exc,
                    len(accepted),
                )
                # What will be stored; a write the full queue dropped (logged there) is left out.
                stored = [
                    self._ops.shape(self._ops.promised(v, mode), plan.deserialize)
                    for v, mode in plan.writes
                    if id(v) in accepted
                ]
                # A write plan's result is the list (a batch) or one value (one memory, marked by
                # empty=None): the cast is that rule, which the types cannot tie to `empty`.
                return cast(T, stored[0] if plan.empty is None else stored)
        answer: T = self._policy.on_failure(plan.kind, plan.what, exc, plan.empty)  # plan.empty or a raise
        return answer

    def _budget(self, plan: Plan[Any]) -> float:
        return self._policy.budget(plan.kind) * plan.units

    def _shutdown(self, flush_timeout: float) -> None:
        """Flush queued writes for up to ``flush_timeout`` seconds (what is left is counted lost
        and logged), then close the HTTP client on the shared loop. Blocking: the async twin runs
        it on a worker thread."""
        exits.unregister(self._exit)
        self._close_when_dropped.detach()
        self._retries.close(flush_timeout)
        loop = shared_loop()
        if not loop.in_loop_thread():
            loop.run(self._connection.aclose(), self._policy.write_timeout)
        self._connection.close()

    def _scope_user(self, user_id: str | None) -> str | None:
        return scoped(user_id)

    def stats(self) -> dict[str, int]:
        """Background retries of failed writes: queued, delivered, lost, dropped, pending."""
        s = self._retries.stats
        return {
            "queued": s.queued,
            "delivered": s.delivered,
            "lost": s.lost,
            "dropped": s.dropped,
            "pending": self._retries.pending,
        }

    @property
    def default_user_id(self) -> str:
        return self._ops.default_user_id

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(id={self.id!r}, {self._options.settings!r}, "  # type: ignore[attr-defined]
            f"source={self._ops.source!r})"
        )


class _AtExit:
    """A db at interpreter exit (:mod:`memorysync_core.exits`): one deadline for every db."""

    exit_flush_timeout = 2.0

    def __init__(self, retries: RetryQueue, connection: Connection) -> None:
        self._retries = retries
        self._connection = connection

    def drain_at_exit(self, timeout: float) -> int:
        # close() logs what it could not deliver, as an error naming the count.
        return self._retries.close(timeout) if self._retries.pending else 0

    async def aclose_at_exit(self) -> None:
        await self._connection.aclose()
