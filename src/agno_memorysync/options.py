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


class ConfiguredDb:
    """The constructor, ``default_user_id`` and ``repr`` both twins share (a mixin placed before
    agno's ``BaseDb`` / ``AsyncBaseDb``); each twin then sets up its I/O in ``_open()``."""

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
        self._open()

    def _open(self) -> None:
        raise NotImplementedError

    @property
    def default_user_id(self) -> str:
        return self._ops.default_user_id

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(id={self.id!r}, {self._options.settings!r}, "  # type: ignore[attr-defined]
            f"source={self._ops.source!r})"
        )
