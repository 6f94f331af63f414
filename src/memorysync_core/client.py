"""Build the generated client with our headers, and call it with one error type.

Adapters never touch httpx directly: they build one ``AuthenticatedClient`` here and call
generated operations through :func:`call` / :func:`acall`, which turn every non-2xx answer,
every transport failure and every answer that does not parse into
:class:`~memorysync_core.errors.MemorySyncError`.

A generated operation has three steps: build the request from our arguments, the HTTP exchange,
and parse the answer (:mod:`.generated` reaches the first and the last). They are run one by one
here so that blame lands where it belongs: a wrong argument in our own code raises as the
``TypeError`` / ``ValueError`` it is, a transport failure is a transient ``MemorySyncError``,
and only an answer that fails to parse is reported as the server not following openapi.yaml
(not transient: resending the same request would get the same answer).
"""

from __future__ import annotations

import functools
import ssl
import threading
import time
from collections.abc import Awaitable, Callable
from importlib import metadata
from typing import Any, TypeVar, overload

import httpx
from memorysync_client import AuthenticatedClient
from memorysync_client.types import Response

from .errors import MemorySyncError
from .generated import M1, M2, M3, Operation, operation, success
from .settings import Settings

DISTRIBUTION = "memorysync-kit"
T = TypeVar("T")


@functools.lru_cache(maxsize=8)
def user_agent(distribution: str = DISTRIBUTION) -> str:
    """The ``User-Agent`` every request carries.

    Args:
        distribution: The installed distribution whose version to name.

    Returns:
        ``<distribution>/<version>``, the version read from the installed package's metadata
        (``0+unknown`` in a source tree that was never installed).
    """
    try:
        version = metadata.version(distribution)
    except metadata.PackageNotFoundError:  # running from a source tree that was never installed
        version = "0+unknown"
    return f"{distribution}/{version}"


_tls: ssl.SSLContext | None = None
_plain: ssl.SSLContext | None = None
_tls_lock = threading.Lock()


def tls_context(base_url: str | None = None) -> ssl.SSLContext:
    """One verifying TLS context per process, shared by every client the kit builds.

    Loading the CA bundle takes 10-30 ms of CPU (100 ms on a loaded machine): every httpx client
    built without a context pays it again, and paid on the shared loop it stalled every other
    agent's recall while new capabilities were built. A plain ``http://`` server (the local one)
    never uses TLS, so it gets a context with no CA loaded: it still verifies, so anything
    ``https://`` reached through it fails closed instead of unverified.

    Args:
        base_url: The server the context is for; None or ``https://`` loads the CA bundle.

    Returns:
        The shared context.
    """
    global _tls, _plain
    with _tls_lock:
        if base_url is not None and not base_url.lower().startswith("https:"):
            if _plain is None:
                _plain = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # CERT_REQUIRED, check_hostname
            return _plain
        if _tls is None:
            _tls = httpx.create_ssl_context()
        return _tls


def build_client(
    settings: Settings,
    *,
    timeout: float | httpx.Timeout = 10.0,
    transport: httpx.BaseTransport | None = None,
    async_transport: httpx.AsyncBaseTransport | None = None,
) -> AuthenticatedClient:
    """The generated client, authenticated with ``X-API-Key``.

    The async httpx client is built here, on the caller's thread, so the loop that later runs
    its requests never spends time setting it up.

    Args:
        settings: Where and as whom to connect.
        timeout: Seconds (or an ``httpx.Timeout``) for one HTTP call.
        transport: An httpx transport for the sync client (tests use it for fault injection).
            One that implements both protocols, such as ``httpx.MockTransport``, serves the
            async client too when ``async_transport`` is not given.
        async_transport: An httpx transport for the async client.

    Returns:
        The generated ``AuthenticatedClient``, sending the kit's ``User-Agent`` (and
        ``X-Project-ID`` when the settings pin a project).
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
        verify_ssl=tls_context(settings.base_url),
    )
    if async_transport is None and isinstance(transport, httpx.AsyncBaseTransport):
        async_transport = transport
    common: dict[str, Any] = {
        "base_url": settings.base_url,
        "headers": {**headers, "X-API-Key": settings.api_key},
        "timeout": timeout,
        "verify": tls_context(settings.base_url),
    }
    if transport is not None:
        client.set_httpx_client(httpx.Client(transport=transport, **common))
    if async_transport is not None:
        client.set_async_httpx_client(httpx.AsyncClient(transport=async_transport, **common))
    else:
        client.get_async_httpx_client()
    return client


def invoke(fn: Callable[..., Response[T]], /, *, deadline: float | None = None, **kwargs: Any) -> Response[T]:
    """Run a generated ``*.sync_detailed`` operation; transport and parse failures raise.

    Args:
        fn: The generated operation, e.g. ``recall.sync_detailed``.
        deadline: A ``time.monotonic()`` value the whole exchange ends by, or raises a timeout.
        **kwargs: The operation's own arguments, ``client=`` included.

    Returns:
        The generated ``Response``, whatever its status.

    Raises:
        MemorySyncError: No answer (transient), or an answer that does not parse as openapi.yaml
            describes it.
    """
    op = operation(fn)
    client = kwargs.pop("client")
    request = op.request(**kwargs)  # our arguments: a mistake here is ours, raised as is
    try:
        httpx_client = client.get_httpx_client()
        if deadline is not None:
            request.update(until(deadline))
        response = httpx_client.request(**request)
    except httpx.HTTPError as exc:
        raise MemorySyncError.from_transport(exc, op.name, str(httpx_client.base_url)) from exc
    return _parse(op, client, response)


async def ainvoke(fn: Callable[..., Awaitable[Response[T]]], /, **kwargs: Any) -> Response[T]:
    """Run a generated ``*.asyncio_detailed`` operation; transport and parse failures raise.

    Args:
        fn: The generated operation, e.g. ``recall.asyncio_detailed``.
        **kwargs: The operation's own arguments, ``client=`` included.

    Returns:
        The generated ``Response``, whatever its status.

    Raises:
        MemorySyncError: No answer (transient), or an answer that does not parse.
    """
    op = operation(fn)
    client = kwargs.pop("client")
    request = op.request(**kwargs)
    try:
        async_client = client.get_async_httpx_client()
        response = await async_client.request(**request)
    except httpx.HTTPError as exc:
        raise MemorySyncError.from_transport(exc, op.name, str(async_client.base_url)) from exc
    return _parse(op, client, response)


@overload
def call(
    fn: Callable[..., Response[Any]], /, *, expect: type[M1], deadline: float | None = None, **kwargs: Any
) -> M1: ...
@overload
def call(
    fn: Callable[..., Response[Any]],
    /,
    *,
    expect: tuple[type[M1], type[M2], type[M3]],
    deadline: float | None = None,
    **kwargs: Any,
) -> M1 | M2 | M3: ...
@overload
def call(fn: Callable[..., Response[T]], /, *, deadline: float | None = None, **kwargs: Any) -> T: ...
def call(
    fn: Callable[..., Response[Any]],
    /,
    *,
    expect: type[Any] | tuple[type[Any], ...] | None = None,
    deadline: float | None = None,
    **kwargs: Any,
) -> Any:
    """Run a generated ``*.sync_detailed`` operation; return the parsed 2xx body or raise.

    Args:
        fn: The generated operation, e.g. ``recall.sync_detailed``.
        expect: The operation's 2xx model, or a tuple of them: the body is checked against it
            and the result typed as it. Without it the result is typed as the operation's whole
            answer union.
        deadline: A ``time.monotonic()`` value the whole exchange ends by.
        **kwargs: The operation's own arguments, ``client=`` included.

    Returns:
        The parsed body of the 2xx answer.

    Raises:
        MemorySyncError: A non-2xx answer (with its status and ``detail``), no answer, or one
            that does not parse.
    """
    return _unwrap(invoke(fn, deadline=deadline, **kwargs), operation(fn).name, expect)


def until(deadline: float) -> dict[str, Any]:
    """``httpx`` request arguments that end the exchange by ``deadline`` (``time.monotonic()``).

    httpx times each phase (pool, connect, write, read) separately, so a plain timeout of the
    time left could let a slow connect and a slow answer add up. The read timeout is therefore
    set again to what is left when the answer starts to be read (httpcore reads it from the
    request's ``timeout`` extension just after its ``trace`` event for that step)."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise httpx.ReadTimeout("no time left before the deadline")

    def trace(event: str, info: dict[str, Any]) -> None:
        if event.endswith(("receive_response_headers.started", "receive_response_body.started")):
            timeouts = getattr(info.get("request"), "extensions", {}).get("timeout")
            if isinstance(timeouts, dict):
                timeouts["read"] = max(deadline - time.monotonic(), 0.001)

    return {"timeout": httpx.Timeout(left), "extensions": {"trace": trace}}


@overload
async def acall(fn: Callable[..., Awaitable[Response[Any]]], /, *, expect: type[M1], **kwargs: Any) -> M1: ...
@overload
async def acall(
    fn: Callable[..., Awaitable[Response[Any]]],
    /,
    *,
    expect: tuple[type[M1], type[M2], type[M3]],
    **kwargs: Any,
) -> M1 | M2 | M3: ...
@overload
async def acall(fn: Callable[..., Awaitable[Response[T]]], /, **kwargs: Any) -> T: ...
async def acall(
    fn: Callable[..., Awaitable[Response[Any]]],
    /,
    *,
    expect: type[Any] | tuple[type[Any], ...] | None = None,
    **kwargs: Any,
) -> Any:
    """Run a generated ``*.asyncio_detailed`` operation; return the parsed 2xx body or raise.

    Args:
        fn: The generated operation, e.g. ``recall.asyncio_detailed``.
        expect: The operation's 2xx model, or a tuple of them (as in `call`).
        **kwargs: The operation's own arguments, ``client=`` included.

    Returns:
        The parsed body of the 2xx answer.

    Raises:
        MemorySyncError: A non-2xx answer, no answer, or one that does not parse.
    """
    return _unwrap(await ainvoke(fn, **kwargs), operation(fn).name, expect)


def _parse(op: Operation, client: AuthenticatedClient, response: httpx.Response) -> Response[Any]:
    try:
        return op.parse(client, response)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise MemorySyncError.unparsable(response.status_code, response.content, op.name, exc) from exc


def _unwrap(response: Response[Any], name: str, expect: type[Any] | tuple[type[Any], ...] | None) -> Any:
    return success(response, name, object if expect is None else expect)
