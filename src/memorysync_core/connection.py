"""Everything an adapter needs to talk to MemorySync, built from one set of arguments."""

from __future__ import annotations

import httpx
from memorysync_client import AuthenticatedClient

from .client import build_client
from .settings import Settings, resolve_settings
from .tenancy import TenantResolver


class Connection:
    """Settings, the generated client and the cached tenant, shared by sync and async code.

    The generated client keeps one sync and one async httpx client; the async one is bound to
    the event loop that first uses it, so give each loop its own ``Connection``.

    Args:
        api_key: The key; None reads ``MEMORYSYNC_API_KEY``.
        base_url: The server; None reads ``MEMORYSYNC_BASE_URL``, else hosted MemorySync.
        project_id: The project to pin (``X-Project-ID``), or None for the key's default project.
        tenant_id: The tenant of the v1 routes, or None to discover it once (``GET /org/projects``).
        timeout: Seconds (or an ``httpx.Timeout``) for one HTTP call.
        transport: An httpx transport for the sync client (tests inject faults through it).
        async_transport: An httpx transport for the async client.

    Raises:
        ValueError: No API key, a base URL that is not http(s), or an empty id.
    """

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        project_id: str | None = None,
        tenant_id: str | None = None,
        timeout: float | httpx.Timeout = 10.0,
        transport: httpx.BaseTransport | None = None,
        async_transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.settings: Settings = resolve_settings(api_key, base_url, project_id)
        self.client: AuthenticatedClient = build_client(
            self.settings, timeout=timeout, transport=transport, async_transport=async_transport
        )
        self.tenants = TenantResolver(tenant_id)

    def tenant_id(self) -> str:
        """The tenant this key acts in, asked of the server once (see `TenantResolver`)."""
        return self.tenants.resolve(self.client)

    async def atenant_id(self) -> str:
        """`tenant_id`, awaited."""
        return await self.tenants.aresolve(self.client)

    def close(self) -> None:
        """Close the sync HTTP client."""
        self.client.get_httpx_client().close()

    async def aclose(self) -> None:
        """Close the async HTTP client (on the loop that used it)."""
        await self.client.get_async_httpx_client().aclose()

    def __repr__(self) -> str:
        return f"Connection({self.settings!r}, tenant={self.tenants.cached!r})"
