"""Fire-and-forget capture: a bounded queue drained by one writer task on the background loop.

``enqueue`` never blocks the chat. The writer sends turns in batches, retries transient failures
(no answer, 5xx, a plain 429) with exponential backoff and jitter using the SAME idempotency keys,
and waits on a circuit breaker instead of hammering a dead server. A turn is given up on only
after ``retry_for`` seconds of failures, or at once for an answer retrying cannot change (a 4xx,
the plan-limit 429).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from memorysync_core import Backoff, CircuitBreaker, LoopThread, retryable

from .activity import RecallActivity
from .backend import PendingTurn, describe_failure
from .stats import Stats

log = logging.getLogger("ag2_memorysync")


@dataclass(frozen=True)
class RetryPolicy:
    """How hard the writer tries. Defaults ride out a server restart without flooding it.

    Args:
        backoff_base: The first retry's delay in seconds, doubled each attempt.
        backoff_max: The cap on one delay.
        retry_for: Seconds of failures after which a turn is given up on.
        breaker_threshold: Failures in a row that open the circuit.
        breaker_cooldown: Seconds the circuit stays open before one probe.
        batch_size: Turns per ``/v1/history/append`` call (1 to 100).
        linger: Seconds a fresh turn waits before it is sent, so a quick exchange shares one request.
        yield_to_recall: Seconds at most a write then waits for a pause between recalls.
    """

    backoff_base: float = 0.2  # first retry delay, doubled each attempt
    backoff_max: float = 2.0  # cap on one delay
    retry_for: float = 300.0  # give a turn up after this many seconds of failures
    breaker_threshold: int = 5  # consecutive failures that open the circuit
    breaker_cooldown: float = 2.0  # seconds the circuit stays open before one probe
    batch_size: int = 50  # turns per /v1/history/append call (the contract allows 100)
    # A fresh turn waits this long before it is sent, so its write does not compete on the
    # server with the recall for the very same turn (which is on the reply's hot path); it also
    # lets the turns of a quick exchange share one request.
    linger: float = 0.02
    # Then it waits for a pause between recalls (see ag2_memorysync.activity), at most this long:
    # a write running alongside a recall slows the recall, which the reply is waiting for.
    yield_to_recall: float = 0.5

    def __post_init__(self) -> None:
        if not 0 < self.backoff_base <= self.backoff_max:
            raise ValueError("RetryPolicy needs 0 < backoff_base <= backoff_max")
        if self.retry_for < 0:
            raise ValueError("RetryPolicy.retry_for must be >= 0 seconds")
        if self.linger < 0:
            raise ValueError("RetryPolicy.linger must be >= 0 seconds")
        if self.yield_to_recall < 0:
            raise ValueError("RetryPolicy.yield_to_recall must be >= 0 seconds")
        if not 1 <= self.batch_size <= 100:
            raise ValueError("RetryPolicy.batch_size must be between 1 and 100 (the contract's limit)")

    @property
    def backoff(self) -> Backoff:
        return Backoff(self.backoff_base, self.backoff_max)

    def delay(self, attempt: int, rng: Callable[[], float] = random.random) -> float:
        """Exponential backoff with equal jitter (``memorysync_core.Backoff``)."""
        return self.backoff.delay(attempt, rng)


class TurnWriter:
    def __init__(
        self,
        send: Callable[[list[PendingTurn]], Awaitable[str]],
        bridge: LoopThread,
        *,
        max_pending: int,
        policy: RetryPolicy,
        stats: Stats,
        on_lost: Callable[[list[PendingTurn]], None],
        clock: Callable[[], float] = time.monotonic,
        rng: Callable[[], float] = random.random,
        recalls: RecallActivity | None = None,
    ) -> None:
        if max_pending < 1:
            raise ValueError("max_pending must be at least 1")
        self._send = send
        self._bridge = bridge
        self._max_pending = max_pending
        self._policy = policy
        self._stats = stats
        self._on_lost = on_lost
        self._clock = clock
        self._rng = rng
        self._recalls = recalls
        self.breaker = CircuitBreaker(policy.breaker_threshold, policy.breaker_cooldown, clock)
        self._queue: deque[PendingTurn] = deque()
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._pending = 0  # queued plus in flight
        # Turns accepted and turns done with (delivered or given up on), in queue order: a
        # recall waits until those said before its prompt are done (read your own writes).
        self._accepted = 0
        self._done = 0
        self._last: str | None = None  # the content of the turn accepted last
        self._progress: asyncio.Event | None = None
        # Set while a recall waits for turns: the writer sends at once instead of lingering.
        self._rush: asyncio.Event | None = None
        self._closed = False
        self._abandon = False
        self._wake: asyncio.Event | None = None
        self._asleep = False  # the writer waits for _wake: the next enqueue must set it
        self._warned_skip = False
        self._drops = 0
        self._task = bridge.submit(self._run())

    @property
    def pending(self) -> int:
        with self._lock:
            return self._pending

    def enqueue(self, turn: PendingTurn) -> bool:
        """Queue ``turn`` without blocking; False when it was dropped (queue full or closed)."""
        with self._lock:
            accepted = not self._closed and len(self._queue) < self._max_pending
            wake = False
            if accepted:
                self._queue.append(turn)
                self._pending += 1
                self._accepted += 1
                self._last = turn.content
                wake, self._asleep = self._asleep, False
        if not accepted:
            self._drop(turn)
            return False
        # Only a sleeping writer needs waking: one that lingers or sends takes this turn on its
        # next round. A wake-up writes to the loop's self-pipe and wakes its thread, which then
        # competes with the chat's thread for the GIL: once per burst is enough.
        if wake:
            # RuntimeError: the loop is gone (interpreter shutdown); flush() reports the backlog.
            with contextlib.suppress(RuntimeError):
                self._bridge.loop.call_soon_threadsafe(self._notify)
        return True

    def said_before(self, prompt: str) -> int:
        """How many accepted turns came before ``prompt``'s own turn (the one accepted last, when
        it holds ``prompt``): what a recall on ``prompt`` should find stored (``settle``)."""
        with self._lock:
            return self._accepted - (1 if self._last == prompt else 0)

    def settle(self, upto: int, timeout: float) -> bool:
        """Wait until the first ``upto`` accepted turns are done with, at most ``timeout`` seconds
        (not on the loop thread: see ``asettle``); False on timeout."""
        with self._idle:
            if self._done >= upto:
                return True
        with contextlib.suppress(RuntimeError):  # the loop is gone: the wait below times out
            self._bridge.loop.call_soon_threadsafe(self._hurry)
        with self._idle:
            return self._idle.wait_for(lambda: self._done >= upto, max(timeout, 0.0))

    def _hurry(self) -> None:
        if self._rush is not None:
            self._rush.set()

    async def asettle(self, upto: int, timeout: float) -> bool:
        """``settle`` on the writer's own loop, which keeps running (and writing) meanwhile."""
        loop = asyncio.get_running_loop()
        end = loop.time() + max(timeout, 0.0)
        with self._lock:
            if self._done >= upto:
                return True
        self._hurry()
        while True:
            progress = self._progress
            if progress is not None:
                progress.clear()  # before the check: a turn done after it sets it again
            with self._lock:
                if self._done >= upto:
                    return True
            left = end - loop.time()
            if progress is None or left <= 0:
                return False
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await asyncio.wait_for(progress.wait(), left)

    def flush(self, timeout: float | None = 5.0) -> bool:
        """Wait until every queued turn was delivered or given up on; False on timeout."""
        if self._bridge.in_loop_thread():
            raise RuntimeError("flush() would deadlock on the MemorySync loop thread; use aflush()")
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def close(self, timeout: float | None = 5.0) -> bool:
        """Flush, then stop. Turns still queued after ``timeout`` get one last attempt each (no
        waiting on backoff or the circuit) and are counted as failed if it fails too. True when
        nothing was lost."""
        failed_before = self._stats.snapshot()["failed"]
        drained = self.flush(timeout)
        with self._lock:
            self._closed = True
            self._abandon = not drained
        with contextlib.suppress(RuntimeError):
            self._bridge.loop.call_soon_threadsafe(self._notify)
        if not drained:
            with self._idle:
                drained = self._idle.wait_for(lambda: self._pending == 0, 2.0)
        with contextlib.suppress(Exception):  # let the writer task finish before its loop may stop
            self._task.result(timeout=1.0)
        return drained and self._stats.snapshot()["failed"] == failed_before

    def _drop(self, turn: PendingTurn) -> None:
        self._stats.add("dropped")
        self._on_lost([turn])
        self._drops += 1
        if self._drops == 1 or self._drops % 100 == 0:
            log.warning(
                "MemorySync capture queue is full (%d turns); dropped %d turn(s) so far. "
                "The server is unreachable or slow: raise max_pending_writes= or check the server.",
                self._max_pending,
                self._drops,
            )

    def _notify(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _take(self) -> list[PendingTurn]:
        with self._lock:
            n = min(len(self._queue), self._policy.batch_size)
            return [self._queue.popleft() for _ in range(n)]

    async def _run(self) -> None:
        self._wake = asyncio.Event()
        self._progress = asyncio.Event()
        self._rush = rush = asyncio.Event()
        while True:
            batch = self._take()
            if not batch:
                with self._lock:
                    if self._closed:
                        return
                    self._wake.clear()
                    asleep = self._asleep = not self._queue
                if asleep:
                    await self._wake.wait()
                    if self._policy.linger and not self._closed and not rush.is_set():
                        with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                            await asyncio.wait_for(rush.wait(), self._policy.linger)
                    if (
                        self._recalls is not None
                        and self._policy.yield_to_recall
                        and not self._closed
                        and not rush.is_set()
                    ):
                        await self._recalls.pause(self._policy.yield_to_recall)
                    rush.clear()
                continue
            try:
                await self._deliver(batch)
            finally:
                with self._idle:
                    self._pending -= len(batch)
                    self._done += len(batch)
                    self._idle.notify_all()
                self._progress.set()

    async def _deliver(self, batch: list[PendingTurn]) -> None:
        deadline = self._clock() + self._policy.retry_for
        attempt = 0
        while True:
            wait = self.breaker.wait_time()
            if wait > 0 and not self._abandon:
                await self._pause(wait)
                continue
            try:
                status = await self._send(batch)
            except Exception as exc:
                if not retryable(exc):
                    self.breaker.success()  # the server answered; it is alive
                    self._give_up(batch, exc)
                    return
                self.breaker.failure()
                if self._abandon or self._clock() >= deadline:
                    self._give_up(batch, exc)
                    return
                attempt += 1
                self._stats.add("retried")
                (log.warning if attempt == 1 else log.debug)(
                    "MemorySync write failed (%s); retrying with the same idempotency key",
                    describe_failure(exc),
                )
                await self._pause(self._policy.delay(attempt, self._rng))
                continue
            self.breaker.success()
            if attempt:
                log.info("MemorySync writes resumed after %d retr%s", attempt, "y" if attempt == 1 else "ies")
            if status == "skipped":
                self._stats.add("skipped", len(batch))
                if not self._warned_skip:
                    self._warned_skip = True
                    log.warning("MemorySync stored nothing (status 'skipped'): the plan's quota is used up")
            else:
                self._stats.add("captured", len(batch))
            return

    async def _pause(self, seconds: float) -> None:
        # Wake early when close() abandons the backlog.
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while not self._abandon and loop.time() < end:
            await asyncio.sleep(min(0.05, max(end - loop.time(), 0)))

    def _give_up(self, batch: list[PendingTurn], exc: BaseException) -> None:
        self._stats.add("failed", len(batch))
        self._on_lost(batch)
        log.warning("MemorySync lost %d captured turn(s): %s", len(batch), describe_failure(exc))
