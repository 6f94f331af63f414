"""Fault injection on the real socket: delays, error statuses and answers that trickle in, so
clients meet real failures."""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass
from typing import Any

_DETAILS = {
    429: "Too many requests (injected fault). Retry later with the same idempotency key.",
    500: "Internal server error (injected fault). Retry later.",
    502: "Bad gateway (injected fault). Retry later.",
    503: "Service unavailable (injected fault). Retry later.",
    504: "Gateway timeout (injected fault). Retry later.",
}


@dataclass
class _Fault:
    delay: float | None
    status: int | None
    count: int | None  # None: until cleared
    route: str | None
    detail: Any
    trickle: float | None = None  # seconds between the bytes of the answer's body


class Faults:
    """Faults injected on the real socket of a `LocalServer` (its ``.faults``): ``set(delay=5.0)``,
    ``set(status=503, count=3)``, ``set(status=429)``, ``set(trickle=0.1)``, ``clear()``."""

    def __init__(self) -> None:
        self._fault: _Fault | None = None
        self._lock = threading.Lock()
        self.hits = 0
        self._generation = 0  # bumped by clear(): delays already running end early

    def set(
        self,
        *,
        delay: float | None = None,
        status: int | None = None,
        count: int | None = None,
        route: str | None = None,
        detail: Any = None,
        trickle: float | None = None,
    ) -> None:
        """Inject a fault into the requests that follow (replacing any fault set before).

        Args:
            delay: Seconds each matching request waits before it is answered.
            status: An HTTP error status (400-599) to answer instead of the route.
            count: How many matching requests get the fault (None: every one until `clear`).
            route: A substring of the request paths the fault applies to (None: every path).
            detail: The ``detail`` of an injected error answer (default: a message per status).
            trickle: Seconds between the bytes of the answer's body: every read gets something,
                so a client timing each read separately never times out.

        Raises:
            ValueError: None of ``delay``, ``status`` or ``trickle``, or a status outside 400-599.
        """
        if delay is None and status is None and trickle is None:
            raise ValueError(
                "Give delay= (seconds), status= (an HTTP status) and/or trickle= (seconds between "
                "bytes), or call clear()."
            )
        if status is not None and not 400 <= status <= 599:
            raise ValueError("status= must be an HTTP error status (400-599).")
        with self._lock:
            self._fault = _Fault(delay, status, count, route, detail, trickle)

    def clear(self) -> None:
        """Remove the fault; requests already being delayed go on at once."""
        with self._lock:
            self._fault = None
            self._generation += 1

    @property
    def generation(self) -> int:
        """Bumped by every `clear`: delays already running end early when it changes."""
        return self._generation

    def take(self, path: str) -> _Fault | None:
        """The fault a request to ``path`` gets now, counted against ``count`` (None: no fault)."""
        with self._lock:
            fault = self._fault
            if fault is None or (fault.route is not None and fault.route not in path):
                return None
            if fault.count is not None:
                fault.count -= 1
                if fault.count <= 0:
                    self._fault = None
            self.hits += 1
            return fault


class FaultMiddleware:
    """Pure ASGI: applies the current fault before the app sees the request."""

    def __init__(self, app: Any, faults: Faults) -> None:
        self.app = app
        self.faults = faults

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        generation = self.faults.generation
        fault = self.faults.take(scope.get("path", ""))
        if fault is None:
            await self.app(scope, receive, send)
            return
        if fault.delay:
            receive = await self._delay(fault.delay, receive, generation)
            if receive is None:  # the client left (or the fault was cleared for a stop): nothing to answer
                return
        if fault.status is None:
            await self.app(scope, receive, send if not fault.trickle else self._trickled(send, fault.trickle))
            return
        detail = fault.detail if fault.detail is not None else _DETAILS.get(fault.status, "Injected fault.")
        body = json.dumps({"detail": detail}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if fault.status in (429, 503):
            headers.append((b"retry-after", b"1"))
        await send({"type": "http.response.start", "status": fault.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _trickled(self, send: Any, pause: float) -> Any:
        """``send`` with each body message split into bytes ``pause`` seconds apart (ending
        early when the fault is cleared, so a stopping server never waits it out)."""
        generation = self.faults.generation

        async def trickled(message: dict[str, Any]) -> None:
            if message["type"] != "http.response.body":
                await send(message)
                return
            body, more = message.get("body", b""), message.get("more_body", False)
            for at in range(len(body)):
                if self.faults.generation != generation:
                    await send({"type": "http.response.body", "body": body[at:], "more_body": more})
                    return
                await send({"type": "http.response.body", "body": body[at : at + 1], "more_body": True})
                await asyncio.sleep(pause)
            await send({"type": "http.response.body", "body": b"", "more_body": more})

        return trickled

    async def _delay(self, delay: float, receive: Any, generation: int) -> Any:
        """Sleep ``delay`` seconds, but end early when the client disconnects or ``clear()`` is
        called, so a stopping server never waits out an injected delay. Request body messages
        read while waiting are replayed to the app."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + delay
        buffered: list[dict[str, Any]] = []
        while (remaining := deadline - loop.time()) > 0 and self.faults.generation == generation:
            try:  # once the body is in, receive() answers only a disconnect
                message = await asyncio.wait_for(receive(), min(remaining, 0.05))
            except asyncio.TimeoutError:
                continue
            if message["type"] == "http.disconnect":
                return None
            buffered.append(message)

        async def replay() -> dict[str, Any]:
            return buffered.pop(0) if buffered else await receive()

        return replay
