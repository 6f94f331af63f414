"""Writes that failed for a passing reason, retried in the background until they are stored.

With ``fail_open_writes=True`` a write that fails because the server was unreachable, slow or
answering 5xx / 429 must neither break the agent's turn nor be lost: agno has already told the
model "Memory added successfully". The write goes into a bounded queue, keyed by (user, memory
id), and one worker on the shared background loop retries it with backoff and jitter. A retry
is the same upsert (read, merge, write) so it converges on one record, however often it runs.

Ordering rules, so a retry can never undo something newer:
* a newer failed write of the same memory replaces the queued one;
* a later direct write or delete of that memory first takes it out of the queue, and waits for
  a retry already in flight (``settle``), so an old value cannot land after a newer one or
  bring back a memory that was just deleted.

A write that cannot succeed by retrying (401/403/422, an exhausted plan) is not queued. Writes
that exceed ``max_pending`` are dropped, or given up after ``retry_for`` seconds: each loss is
counted in ``stats()`` and logged as an error. ``flush()`` waits for the queue; ``close()`` and
interpreter exit (:mod:`memorysync_core.exits`) flush briefly and log what could not be delivered.
Backoff and the retryable check are the core's, the same as the AG2 adapter's.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from memorysync_core import Backoff, Connection, retryable, shared_loop

from .ops import MemoryOps, drive

logger = logging.getLogger("agno_memorysync")

Key = tuple[str, str]  # (user_id, memory_id); memory_id "*" stands for every memory of the user


@dataclass
class _Entry:
    value: dict[str, Any]
    mode: str
    since: float
    attempts: int = 0


@dataclass
class RetryStats:
    queued: int = 0  # writes that failed and were queued
    delivered: int = 0  # queued writes later stored
    lost: int = 0  # queued writes given up (retry_for passed, a permanent error, or closed)
    dropped: int = 0  # failed writes not queued because the queue was full
    waits: list[float] = field(default_factory=list, repr=False)


class RetryQueue:
    def __init__(
        self,
        *,
        ops: MemoryOps,
        connection: Connection,
        write_timeout: float,
        max_pending: int = 1000,
        retry_for: float = 300.0,
        backoff: Backoff | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if isinstance(max_pending, bool) or not isinstance(max_pending, int) or max_pending < 0:
            raise ValueError(f"max_pending_writes must be an integer >= 0, got {max_pending!r}")
        if isinstance(retry_for, bool) or not isinstance(retry_for, (int, float)) or retry_for < 0:
            raise ValueError(f"retry_for must be a number of seconds >= 0, got {retry_for!r}")
        self._ops = ops
        self._connection = connection
        self._write_timeout = write_timeout
        self.max_pending = max_pending
        self.retry_for = float(retry_for)
        self._backoff = backoff or Backoff()
        self._clock = clock
        self._lock = threading.Lock()
        self._pending: dict[Key, _Entry] = {}
        self._inflight: dict[Key, concurrent.futures.Future[None]] = {}
        self._worker: concurrent.futures.Future[None] | None = None
        self._idle = threading.Event()
        self._idle.set()
        self.stats = RetryStats()

    # ---------------------------------------------------------------- callers
    def add(self, writes: Iterable[tuple[dict[str, Any], str]]) -> list[dict[str, Any]]:
        """Queue failed writes; returns the values accepted (the others were dropped and logged)."""
        accepted, dropped = [], 0
        with self._lock:
            for value, mode in writes:
                key = (value["user_id"], value["memory_id"])
                if key not in self._pending and len(self._pending) >= self.max_pending:
                    dropped += 1
                    continue
                previous = self._pending.get(key)
                since = previous.since if previous is not None else self._clock()
                self._pending[key] = _Entry(value, mode, since)
                accepted.append(value)
            self.stats.queued += len(accepted)
            self.stats.dropped += dropped
            if accepted:
                self._idle.clear()
                if self._worker is None or self._worker.done():
                    self._worker = shared_loop().submit(self._run())
        if dropped:
            logger.error(
                "MemorySync: %d failed memory write(s) LOST: the retry queue is full (max_pending_writes=%d). "
                "The server has been failing for a while; see the errors above.",
                dropped,
                self.max_pending,
            )
        return accepted

    def settle(self, keys: Iterable[Key]) -> list[concurrent.futures.Future[None]]:
        """Take these memories out of the queue before a newer write or a delete of them; returns
        the retries already in flight, which the caller must wait for before it goes on."""
        waits = []
        with self._lock:
            for user, memory_id in keys:
                matching = (
                    [k for k in (*self._pending, *self._inflight) if k[0] == user]
                    if memory_id == "*"
                    else [(user, memory_id)]
                )
                for key in matching:
                    self._pending.pop(key, None)
                    if key in self._inflight:
                        waits.append(self._inflight[key])
            if not self._pending and not self._inflight:
                self._idle.set()
        return waits

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._pending)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued write was stored or given up; False if ``timeout`` passed first."""
        if shared_loop().in_loop_thread():
            return self._idle.is_set()  # never block the loop the worker runs on
        return self._idle.wait(timeout)

    async def aflush(self, timeout: float | None = None) -> bool:
        return await asyncio.get_running_loop().run_in_executor(None, self.flush, timeout)

    def close(self, timeout: float) -> int:
        """Flush for at most ``timeout`` seconds, then give up what is left; returns how many."""
        self.flush(timeout)
        with self._lock:
            left = len(self._pending)
            self._pending.clear()
            self.stats.lost += left
            if not self._inflight:
                self._idle.set()
        if left:
            logger.error(
                "MemorySync: %d queued memory write(s) LOST at close: the server did not take them in time.",
                left,
            )
        return left

    # ---------------------------------------------------------------- the worker
    async def _run(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    self._worker = None
                    if not self._inflight:
                        self._idle.set()
                    return
                key, entry = next(iter(self._pending.items()))  # oldest first
                done: concurrent.futures.Future[None] = concurrent.futures.Future()
                self._inflight[key] = done
            failure: BaseException | None = None
            try:
                await asyncio.wait_for(
                    drive(self._ops.put_steps(entry.value, entry.mode), self._connection), self._write_timeout
                )
            except Exception as exc:  # judged below: a retry worker must outlive any one failure
                failure = exc
            finally:
                with self._lock:
                    self._inflight.pop(key, None)
                done.set_result(None)
            delay = self._settle_attempt(key, entry, failure)
            if delay:
                await asyncio.sleep(delay)

    def _settle_attempt(self, key: Key, entry: _Entry, failure: BaseException | None) -> float:
        with self._lock:
            if self._pending.get(key) is not entry:
                return 0.0  # replaced by a newer write, or settled by a write/delete meanwhile
            if failure is None:
                del self._pending[key]
                self.stats.delivered += 1
                logger.info("MemorySync: queued write of memory %r delivered", key[1])
                return 0.0
            entry.attempts += 1
            given_up = not retryable(failure) or self._clock() - entry.since >= self.retry_for
            if given_up:
                del self._pending[key]
                self.stats.lost += 1
        if given_up:
            logger.error(
                "MemorySync: queued write of memory %r for user %r LOST after %d attempt(s): %s",
                key[1],
                key[0],
                entry.attempts,
                failure,
            )
            return 0.0
        return self._backoff.delay(entry.attempts)
