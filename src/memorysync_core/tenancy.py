"""Tenant discovery through ``GET /org/projects`` (openapi.yaml, tag ``org``): once per client,
cached, sync and async sharing one rule."""

from __future__ import annotations

import asyncio
import threading
import weakref
from typing import Any

from memorysync_client import AuthenticatedClient
from memorysync_client.api.org import list_projects
from memorysync_client.models import Project
from memorysync_client.types import Response

from .client import ainvoke, invoke
from .errors import MemorySyncError

EVALUATION_TENANT = "default"
"""The tenant of keys without the ``projects:read`` scope (evaluation keys)."""


class TenantResolver:
    """Resolves the ``tenant_id`` the v1 routes need, asking the server at most once.

    An explicit ``tenant_id`` skips discovery. Keys without the ``projects:read`` scope
    (401/403 on ``GET /org/projects``) act in the fixed ``"default"`` tenant; any other
    failure is raised, never silently turned into a different namespace.

    Args:
        tenant_id: The tenant to use without asking, or None to discover it from the key.

    Raises:
        ValueError: ``tenant_id`` is an empty string.
    """

    def __init__(self, tenant_id: str | None = None) -> None:
        if tenant_id is not None and not tenant_id.strip():
            raise ValueError("tenant_id must be a non-empty string, or None to discover it from the key.")
        self._tenant = tenant_id
        self._lock = threading.Lock()
        # An asyncio.Lock belongs to one event loop, so concurrent first callers wait per loop.
        self._alocks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    @property
    def cached(self) -> str | None:
        """The tenant once known (given or discovered), else None."""
        return self._tenant

    def resolve(self, client: AuthenticatedClient) -> str:
        """The tenant, asking the server on the first call only.

        Args:
            client: The generated client to ask ``GET /org/projects`` with.

        Raises:
            MemorySyncError: The server failed, or the key has no project with a tenant.
        """
        if self._tenant is None:
            with self._lock:
                if self._tenant is None:
                    self._tenant = _tenant_from(invoke(list_projects.sync_detailed, client=client))
        return self._tenant

    async def aresolve(self, client: AuthenticatedClient) -> str:
        """`resolve`, awaited: concurrent first callers on one loop ask the server once.

        Args:
            client: The generated client to ask ``GET /org/projects`` with.

        Raises:
            MemorySyncError: The server failed, or the key has no project with a tenant.
        """
        if self._tenant is None:
            loop = asyncio.get_running_loop()
            with self._lock:
                alock = self._alocks.setdefault(loop, asyncio.Lock())
            async with alock:
                if self._tenant is None:
                    self._tenant = _tenant_from(await ainvoke(list_projects.asyncio_detailed, client=client))
        return self._tenant


def _tenant_from(response: Response[Any]) -> str:
    status = response.status_code
    if status in (401, 403):
        return EVALUATION_TENANT
    if not 200 <= status < 300:
        raise MemorySyncError.from_http(status, response.content, "list_projects (tenant discovery)")
    projects = response.parsed
    if not isinstance(projects, list) or not projects:
        raise MemorySyncError(
            "Tenant discovery found no project for this API key. Pass tenant_id=... explicitly.",
            status_code=status,
        )
    first = projects[0]
    tenant = first.tenant_id if isinstance(first, Project) else None
    if not isinstance(tenant, str) or not tenant:
        raise MemorySyncError(
            "Tenant discovery: the key's first project has no tenant_id. Pass tenant_id=... explicitly.",
            status_code=status,
        )
    return tenant
