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
        return self.tenants.resolve(self.client)

    async def atenant_id(self) -> str:
        return await self.tenants.aresolve(self.client)

    def close(self) -> None:
        self.client.get_httpx_client().close()

    async def aclose(self) -> None:
        await self.client.get_async_httpx_client().aclose()

    def __repr__(self) -> str:
        return f"Connection({self.settings!r}, tenant={self.tenants.cached!r})"
