"""Budgeted recall.

A recall is started on the background loop as soon as the reply hook knows what to recall on,
and then waited for: by a blocking wait on the chat's thread in a sync chat, by an ``await`` in
an async chat (so the caller's event loop keeps running meanwhile). Either wait ends at the
budget, counted from the hook's start; anything slower, any error and an open circuit all mean
"no memories this turn". Where the context goes in the model's messages is
:mod:`ag2_memorysync.placement`'s business.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

import httpx

from memorysync_core import CircuitBreaker, LoopThread, MemorySyncError

from .activity import RecallActivity
from .backend import Backend, describe_failure
from .stats import Stats

log = logging.getLogger("ag2_memorysync")

DEFAULT_CONTEXT_TEMPLATE = (
    "Long-term memory about the person you are talking with, from earlier conversations. "
    "Use it when it helps; do not mention that it was provided.\n{context}"
)
"""The default ``context_template``: how recalled memories are introduced to the model."""


# A recall waits for this person's earlier turns still being written (read your own writes) at
# most this share of what is left of its budget; the rest is the recall's own.
SETTLE_SHARE = 0.5


class OwnWrites(Protocol):
    """The turns this session captured and is still sending (``writer.TurnWriter``)."""

    def said_before(self, prompt: str) -> int: ...

    def settle(self, upto: int, timeout: float) -> bool: ...

    async def asettle(self, upto: int, timeout: float) -> bool: ...


def render(template: str, context: str) -> str:
    # str.replace, not str.format: memories may contain braces and percent signs.
    return template.replace("{context}", context)


class Recaller:
    def __init__(
        self,
        backend: Backend,
        bridge: LoopThread,
        *,
        top_k: int,
        budget: float,
        stats: Stats,
        breaker: CircuitBreaker,
        clock: Callable[[], float] = time.monotonic,
        activity: RecallActivity | None = None,
        writes: OwnWrites | None = None,
    ) -> None:
        self._backend = backend
        # A recall finds what this chat said before it even when the writes have not landed yet
        # (a model that answers at once, a tool loop): it waits for them first, within its budget.
        self.writes = writes
        self._activity = activity if activity is not None else RecallActivity()
        self._bridge = bridge
        self._top_k = top_k
        self._budget = budget
        self._stats = stats
        self._breaker = breaker
        self._clock = clock
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._direct_lock = threading.Lock()

    @property
    def breaker(self) -> CircuitBreaker:
        return self._breaker

    def start(self, prompt: str) -> concurrent.futures.Future[str] | None:
        """Start recalling on ``prompt`` without waiting; None when the circuit is open."""
        if not self._allowed():
            return None
        upto = self.writes.said_before(prompt) if self.writes is not None else 0
        return self._bridge.submit(self._recall(prompt, upto, self._clock()))

    def _allowed(self) -> bool:
        if self._breaker.allow():
            return True
        # The opening was logged once; a skipped turn is not worth a warning each time.
        self._stats.add("recall_failed")
        log.debug("MemorySync recall skipped: circuit open after repeated failures")
        return False

    async def _recall(self, prompt: str, upto: int = 0, started: float | None = None) -> str:
        if self.writes is not None and upto:
            await self.writes.asettle(upto, SETTLE_SHARE * self.remaining(started))
        with self._activity.recalling():  # writes wait for it (ag2_memorysync.activity)
            return await self._backend.recall(prompt, self._top_k)

    def remaining(self, started: float | None) -> float:
        return self._budget - (self._clock() - started if started is not None else 0.0)

    def wait(self, future: concurrent.futures.Future[str] | None, started: float | None) -> str:
        """Block until ``future`` answers or the budget from ``started`` is spent."""
        if future is None:
            return ""
        try:
            context = future.result(timeout=max(self.remaining(started), 0.0))
        except concurrent.futures.TimeoutError:
            future.cancel()
            return self._failed(TimeoutError("no answer within the budget"))
        except Exception as exc:
            return self._failed(exc)
        return self._answered(context)

    async def await_(self, future: concurrent.futures.Future[str] | None, started: float | None) -> str:
        """Like :meth:`wait`, but the caller's event loop keeps running meanwhile."""
        if future is None:
            return ""
        try:
            context = await asyncio.wait_for(asyncio.wrap_future(future), max(self.remaining(started), 0.0))
        except (asyncio.TimeoutError, TimeoutError):
            future.cancel()
            return self._failed(TimeoutError("no answer within the budget"))
        except Exception as exc:
            return self._failed(exc)
        return self._answered(context)

    def recall(self, prompt: str, started: float | None = None) -> str:
        """The context block for ``prompt``, waited for on this thread; ``""`` when there is none
        or no time for it. With no event loop running on this thread (a sync chat) and the
        tenant known, the request goes out over the sync client from a worker thread, not through
        the background loop."""
        left = self.remaining(started)
        if left <= 0:
            self._stats.add("recall_failed")
            return ""
        if loop_running() or self._backend.connection.tenants.cached is None:
            return self.wait(self.start(prompt), started)
        if not self._allowed():
            return ""
        upto = self.writes.said_before(prompt) if self.writes is not None else 0
        return self.wait(self._direct().submit(self._recall_now, prompt, left, upto), started)

    async def arecall(self, prompt: str, started: float | None = None) -> str:
        """:meth:`recall` for async code: the caller's event loop keeps running meanwhile."""
        if self.remaining(started) <= 0:
            self._stats.add("recall_failed")
            return ""
        return await self.await_(self.start(prompt), started)

    def _direct(self) -> concurrent.futures.ThreadPoolExecutor:
        # The sync client times each read on its own: an answer that trickles in a byte at a
        # time never times out (a 0.3 s budget held a chat 3.7 s). So the request runs on a
        # worker thread and the chat waits for it only up to the budget; a thread hand-off
        # costs far less than the hop through the event loop.
        with self._direct_lock:
            if self._executor is None:
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    max_workers=2, thread_name_prefix="memorysync-recall"
                )
            return self._executor

    def _recall_now(self, prompt: str, left: float, upto: int = 0) -> str:
        deadline = time.monotonic() + left
        if self.writes is not None and upto:
            self.writes.settle(upto, SETTLE_SHARE * left)
            left = deadline - time.monotonic()
        try:
            with self._activity.recalling():
                return self._backend.recall_now(prompt, self._top_k, time.monotonic() + left)
        except MemorySyncError as exc:
            if isinstance(exc.__cause__, httpx.TimeoutException):
                raise TimeoutError("no answer within the budget") from exc
            raise

    def close(self) -> None:
        """Stop the worker threads (a request still running ends on its own timeouts)."""
        with self._direct_lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def _answered(self, context: str) -> str:
        self._breaker.success()
        self._stats.add("recalled")
        return context

    def _failed(self, exc: BaseException) -> str:
        self._stats.add("recall_failed")
        opened = self._breaker.failure()
        log.warning(
            "MemorySync recall failed, no memories this turn (%s)%s",
            describe_failure(exc),
            "; pausing recall while the server recovers" if opened else "",
        )
        return ""


def loop_running() -> bool:
    """Whether an event loop runs on this thread: then a blocking request would stall it, and
    the recall runs on the background loop instead (its wait is then the caller's business)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
