"""Recalls in flight, so that writes go out between them.

A recall is on the chat's path and a write is not, yet on the server they compete for the same
cores (and, with an in-process server, for this process's GIL): in back-to-back turns an append
slowed the recall it overlapped by a third or more. The writer therefore waits for a pause in
recalls (:meth:`RecallActivity.pause`), up to a bound. In a chat with a real model the pause
comes right after each recall, while the model answers; only recalls in quick succession make
the writes wait, and then the turns of several exchanges go out in one request.

Recalls run on the chat's thread or the background loop; the writer waits on the loop.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# A pause is this long without a recall in flight: a chat's next recall starts within a
# millisecond or two of the last one ending when the model answers at once.
GAP = 0.005
# How often a waiting writer looks again while a recall runs. A recall may run on the chat's
# thread, which cannot wake the loop without a syscall on the reply's path; checking a lock
# every 20 ms costs the loop next to nothing, and a write then goes out at most 20 ms into the
# model's turn.
POLL = 0.02


class RecallActivity:
    def __init__(self, gap: float = GAP, clock: Callable[[], float] = time.monotonic) -> None:
        self.gap = gap
        self._clock = clock
        self._lock = threading.Lock()
        self._running = 0
        self._ended_at = float("-inf")

    def begin(self) -> None:
        with self._lock:
            self._running += 1

    def end(self) -> None:
        with self._lock:
            self._running -= 1
            if self._running == 0:
                self._ended_at = self._clock()

    @contextmanager
    def recalling(self) -> Iterator[None]:
        self.begin()
        try:
            yield
        finally:
            self.end()

    def _wait(self) -> float:
        """Seconds until a pause may have lasted ``gap`` (``POLL`` while a recall runs)."""
        with self._lock:
            if self._running:
                return max(self.gap, POLL)
            return self.gap - (self._clock() - self._ended_at)

    async def pause(self, limit: float) -> None:
        """Return once no recall has run for ``gap`` seconds, or after ``limit`` seconds."""
        deadline = self._clock() + limit
        while (wait := self._wait()) > 0 and (left := deadline - self._clock()) > 0:
            await asyncio.sleep(min(wait, left))
