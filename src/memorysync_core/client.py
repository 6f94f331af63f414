"""Build the generated client with our headers, and call it with one error type.

Adapters never touch httpx directly: they build one ``AuthenticatedClient`` here and call
generated operations through :func:`call` / :func:`acall`, which turn every non-2xx answer,
every transport failure and every answer that does not parse into
:class:`~memorysync_core.errors.MemorySyncError`.

A generated operation module has three steps: ``_get_kwargs`` (build the request from our
arguments), the HTTP exchange, and ``_build_response`` (parse the answer). They are run one by
one here so that blame lands where it belongs: a wrong argument in our own code raises as the
``TypeError`` / ``ValueError`` it is, a transport failure is a transient ``MemorySyncError``,
and only an answer that fails to parse is reported as the server not following openapi.yaml
(not transient: resending the same request would get the same answer).
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from importlib import metadata
from types import ModuleType
from typing import Any, TypeVar

import httpx
from memorysync_client import AuthenticatedClient
from memorysync_client.types import Response

from .errors import MemorySyncError
from .settings import Settings

DISTRIBUTION = "memorysync-kit"
T = TypeVar("T")


def user_agent(distribution: str = DISTRIBUTION) -> str:
    """``<distribution>/<version>``, the version read from the installed package metadata."""
    try:
        version = metadata.version(distribution)
    except metadata.PackageNotFoundError:  # running from a source tree that was never installed
        version = "0+unknown"
    return f"{distribution}/{version}"


def build_client(
    settings: Settings,
    *,
    timeout: float | httpx.Timeout = 10.0,
    transport: httpx.BaseTransport | None = None,
    async_transport: httpx.AsyncBaseTransport | None = None,
) -> AuthenticatedClient:
    """The generated client, authenticated with ``X-API-Key``.

    ``transport`` / ``async_transport`` are injected into the sync / async httpx clients (tests
    use them for fault injection). A transport that implements both protocols, such as
    ``httpx.MockTransport``, serves both when only ``transport`` is given.
    """
    headers = {"User-Agent": user_agent()}
    if settings.project_id:
        headers["X-Project-ID"] = settings.project_id
    timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
    client = AuthenticatedClient(
        base_url=settings.base_url,
        token=settings.api_key,
        prefix="",
        auth_header_name="X-API-Key",
        headers=headers,
        timeout=timeout,
    )
    if async_transport is None and isinstance(transport, httpx.AsyncBaseTransport):
        async_transport = transport
    common: dict[str, Any] = {
        "base_url": settings.base_url,
        "headers": {**headers, "X-API-Key": settings.api_key},
        "timeout": timeout,
    }
    if transport is not None:
        client.set_httpx_client(httpx.Client(transport=transport, **common))
    if async_transport is not None:
        client.set_async_httpx_client(httpx.AsyncClient(transport=async_transport, **common))
    return client


def invoke(operation: Callable[..., Response[T]], /, **kwargs: Any) -> Response[T]:
    """Run a generated ``*.sync_detailed`` operation; transport and parse failures raise."""
    module, name = _module(operation), _name(operation)
    client = kwargs.pop("client")
    request = module._get_kwargs(**kwargs)  # our arguments: a mistake here is ours, raised as is
    try:
        httpx_client = client.get_httpx_client()
        response = httpx_client.request(**request)
    except httpx.HTTPError as exc:
        raise MemorySyncError.from_transport(exc, name, str(httpx_client.base_url)) from exc
    return _parse(module, client, response, name)


async def ainvoke(operation: Callable[..., Awaitable[Response[T]]], /, **kwargs: Any) -> Response[T]:
    """Run a generated ``*.asyncio_detailed`` operation; transport and parse failures raise."""
    module, name = _module(operation), _name(operation)
    client = kwargs.pop("client")
    request = module._get_kwargs(**kwargs)
    try:
        async_client = client.get_async_httpx_client()
        response = await async_client.request(**request)
    except httpx.HTTPError as exc:
        raise MemorySyncError.from_transport(exc, name, str(async_client.base_url)) from exc
    return _parse(module, client, response, name)


def call(operation: Callable[..., Response[T]], /, **kwargs: Any) -> T:
    """Run a generated ``*.sync_detailed`` operation; return the parsed 2xx body or raise."""
    return _unwrap(invoke(operation, **kwargs), _name(operation))


async def acall(operation: Callable[..., Awaitable[Response[T]]], /, **kwargs: Any) -> T:
    """Run a generated ``*.asyncio_detailed`` operation; return the parsed 2xx body or raise."""
    return _unwrap(await ainvoke(operation, **kwargs), _name(operation))


def _parse(
    module: ModuleType, client: AuthenticatedClient, response: httpx.Response, name: str
) -> Response[Any]:
    try:
        parsed: Response[Any] = module._build_response(client=client, response=response)
        return parsed
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise MemorySyncError.unparsable(response.status_code, response.content, name, exc) from exc


def _unwrap(response: Response[T], name: str) -> T:
    if 200 <= response.status_code < 300:
        return response.parsed  # type: ignore[return-value]
    raise MemorySyncError.from_http(response.status_code, response.content, name)


def _module(operation: Callable[..., Any]) -> ModuleType:
    module = sys.modules.get(getattr(operation, "__module__", ""))
    if module is None or not hasattr(module, "_get_kwargs") or not hasattr(module, "_build_response"):
        raise TypeError(
            f"{operation!r} is not an operation of the generated memorysync_client "
            f"(e.g. memorysync_client.api.memory.recall.asyncio_detailed)"
        )
    return module


def _name(operation: Callable[..., Any]) -> str:
    # memorysync_client.api.memory.recall.sync_detailed -> "recall"
    return getattr(operation, "__module__", "memorysync").rsplit(".", 1)[-1]
