"""A deadline on reading request bodies, and no connection kept behind a body left unread.

uvicorn waits for a body as long as its client keeps the connection open: a request declaring
``Content-Length: 10000000`` that sends ten bytes held its connection (a file descriptor and a
task) for minutes, and a few thousand such clients would exhaust the server's descriptors. Here
every wait for the next piece of a body has a deadline; a body that makes no progress for
``timeout`` seconds is answered ``408`` and its connection is closed. An answer sent before a
large body was read (a ``401``, a ``413`` from the declared length) closes the connection too, so
the server never goes on receiving megabytes it will not read. A small unread body (at most
``DRAIN_BYTES`` left) is left to uvicorn, which reads past it and keeps the connection: closing a
socket with unread bytes in it resets the connection, and a client still writing its small body
would lose the answer (the official SDK's multipart upload to a route not offered did).
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..defaults import DEFAULT_BODY_TIMEOUT
from .errors import ApiError

_CLOSE = (b"connection", b"close")
# What an early answer may leave unread and still keep its connection (uvicorn reads past it).
DRAIN_BYTES = 64 * 1024


class BodyStalled(ApiError):
    """The 408 of a body that made no progress for the deadline (the app answers it as any ApiError)."""

    def __init__(self, timeout: float) -> None:
        super().__init__(
            408,
            f"Request Timeout: the request body made no progress for {timeout:g} s, so the server stopped "
            "waiting and closes the connection. Send the whole body promptly (the length declared in "
            "Content-Length), then retry.",
            {"Connection": "close"},
        )


class BodyDeadline:
    """ASGI middleware: ``timeout`` seconds at most between the pieces of a request body."""

    def __init__(self, app: Any, timeout: float = DEFAULT_BODY_TIMEOUT) -> None:
        if not timeout > 0:
            raise ValueError(f"The body read deadline must be a positive number of seconds, got {timeout!r}.")
        self.app = app
        self.timeout = timeout

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        declared = _declared_length(scope["headers"]) if scope["type"] == "http" else 0
        if declared == 0:
            await self.app(scope, receive, send)
            return
        read_all = stalled = False
        received = 0
        timeout = self.timeout

        async def receive_in_time() -> Any:
            nonlocal read_all, stalled, received
            if read_all:  # the body is in: a later receive waits for a disconnect, with no deadline
                return await receive()
            try:
                message = await _within(receive(), timeout)
            except BodyStalled:
                stalled = True
                raise
            received += len(message.get("body", b""))
            if message["type"] != "http.request" or not message.get("more_body", False):
                read_all = True
            return message

        def left_too_much() -> bool:
            # None: a chunked body of unknown length, which uvicorn reads past like a small one.
            return stalled or (declared is not None and declared - received > DRAIN_BYTES)

        async def send_closing(message: Any) -> None:
            if message["type"] == "http.response.start" and not read_all and left_too_much():
                headers = list(message.get("headers", ()))
                if not any(name.lower() == b"connection" for name, _ in headers):
                    message = {**message, "headers": [*headers, _CLOSE]}
            await send(message)

        await self.app(scope, receive_in_time, send_closing)


async def _within(waiting: Any, timeout: float) -> Any:
    """``await waiting``, or BodyStalled after ``timeout`` seconds. Cancels the current task from a
    timer rather than through ``asyncio.wait_for``, which wraps each wait in a task of its own."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    expired = False

    def expire() -> None:
        nonlocal expired
        expired = True
        task.cancel()

    timer = loop.call_later(timeout, expire)
    try:
        return await waiting
    except asyncio.CancelledError:
        if not expired:
            raise  # cancelled by someone else (a server shutting down)
        if hasattr(task, "uncancel"):  # Python 3.11+: this cancellation is handled here
            task.uncancel()
        raise BodyStalled(timeout) from None
    finally:
        timer.cancel()


def _declared_length(headers: Any) -> int | None:
    """The body length a request declares: 0 for none, None for a chunked body."""
    for name, value in headers:
        if name == b"content-length":
            return int(value) if value.strip().isdigit() else 0
        if name == b"transfer-encoding":
            return None
    return 0
