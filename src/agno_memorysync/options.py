"""The configuration both db classes take, validated once at construction."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

from memorysync_core import Connection, Settings, resolve_settings

from .ops import MemoryOps
from .policy import Policy


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

    def connection(self, tenant_id: str | None = None) -> Connection:
        """A new connection; its async httpx client belongs to the first event loop that uses it."""
        return Connection(
            api_key=self.settings.api_key,
            base_url=self.settings.base_url,
            project_id=self.settings.project_id,
            tenant_id=tenant_id or self.tenant_id,
            # Per phase; the whole operation is bounded by the policy's budget on top of this.
            timeout=self.policy.write_timeout,
            async_transport=self.transport,
        )
