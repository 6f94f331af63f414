"""The official SDK as the compat tests drive it: one calling convention for both of its clients.

``Sdk`` wraps a ``memorysync.MemorySyncClient`` or an ``AsyncMemorySyncClient``; ``sdk.add(...)``
returns the method's result either way (the async client's coroutines run on a private event loop),
so one scenario body covers both clients. Every request goes over a real loopback socket through a
recording transport, so a test can also check what the SDK put on the wire and which fields the
server answered it ignored.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import memorysync

IGNORED_HEADER = "X-MemorySync-Ignored-Fields"


@dataclass(frozen=True)
class Exchange:
    """One request the SDK made and the parts of the answer the tests look at."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any
    status: int
    response_headers: dict[str, str]
    ignored_fields: tuple[str, ...]


def _exchange(request: httpx.Request, response: httpx.Response) -> Exchange:
    body: Any = None
    try:
        raw = request.content
    except httpx.RequestNotRead:  # a streamed (multipart) upload: not kept
        raw = b""
    if raw:
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw
    ignored = response.headers.get(IGNORED_HEADER, "")
    return Exchange(
        method=request.method,
        path=request.url.path,
        query=dict(request.url.params),
        headers={k.lower(): v for k, v in request.headers.items()},
        body=body,
        status=response.status_code,
        response_headers={k.lower(): v for k, v in response.headers.items()},
        ignored_fields=tuple(name.strip() for name in ignored.split(",") if name.strip()),
    )


class RecordingTransport(httpx.BaseTransport):
    """httpx's own socket transport, keeping a log of every exchange."""

    def __init__(self, log: list[Exchange]) -> None:
        self._inner = httpx.HTTPTransport()
        self._log = log

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._inner.handle_request(request)
        response.read()
        self._log.append(_exchange(request, response))
        return response

    def close(self) -> None:
        self._inner.close()


class AsyncRecordingTransport(httpx.AsyncBaseTransport):
    """The async twin of :class:`RecordingTransport`."""

    def __init__(self, log: list[Exchange]) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self._log = log

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        await response.aread()
        self._log.append(_exchange(request, response))
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


@dataclass
class Sdk:
    """One SDK client bound to an end user; attribute access returns the client's methods, made sync."""

    mode: str  # "sync" or "async"
    client: Any
    end_user_id: str | None
    tenant_id: str
    log: list[Exchange]
    _run: Callable[[Any], Any]
    _factory: SdkFactory = field(repr=False)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.client, name)
        if self.mode == "sync" or not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            return self._run(attr(*args, **kwargs))

        return call

    def as_user(self, end_user_id: str) -> Sdk:
        """Another client of the same kind and key, acting for ``end_user_id``."""
        return self._factory.client(end_user_id)

    def exchanges(self, path_prefix: str = "") -> list[Exchange]:
        return [e for e in self.log if e.path.startswith(path_prefix)]


class SdkFactory:
    """Builds ``Sdk`` clients of one kind against one server and closes them all at the end."""

    def __init__(self, base_url: str, api_key: str, tenant_id: str, mode: str) -> None:
        if mode not in ("sync", "async"):
            raise ValueError(f"mode must be 'sync' or 'async', not {mode!r}")
        self.base_url = base_url
        self.api_key = api_key
        self.tenant_id = tenant_id
        self.mode = mode
        self.log: list[Exchange] = []
        self._clients: list[Any] = []
        self._loop = asyncio.new_event_loop() if mode == "async" else None

    def _run(self, awaitable: Any) -> Any:
        assert self._loop is not None
        return self._loop.run_until_complete(awaitable)

    def client(self, end_user_id: str | None, *, api_key: str | None = None) -> Sdk:
        key = api_key or self.api_key
        if self.mode == "sync":
            client: Any = memorysync.MemorySyncClient(
                key, self.base_url, end_user_id=end_user_id, transport=RecordingTransport(self.log)
            )
        else:
            client = memorysync.AsyncMemorySyncClient(
                key, self.base_url, end_user_id=end_user_id, transport=AsyncRecordingTransport(self.log)
            )
        self._clients.append(client)
        return Sdk(self.mode, client, end_user_id, self.tenant_id, self.log, self._run, self)

    def close(self) -> None:
        for client in self._clients:
            if self.mode == "sync":
                client.close()
            else:
                self._run(client.aclose())
        if self._loop is not None:
            self._loop.close()

    def ignored(self) -> Iterator[tuple[str, str, str]]:
        """(method, path, field) for every field the server said it ignored."""
        for e in self.log:
            for name in e.ignored_fields:
                yield e.method, e.path, name
