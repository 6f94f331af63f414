"""Work a search does beside the prompt's encode: the reads that need no vector.

Encoding the prompt takes ~4 ms of a recall's ~9 at 100k memories, and ONNX Runtime lets go of the
interpreter lock while it runs, as sqlite3 does while a statement runs. The lexical stage and the
lookup of the prompt's own turn (~0.7 ms together) then cost no wall time when they run on
another thread meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Generic, TypeVar

__all__ = ["Beside", "Later", "shared_beside"]

T = TypeVar("T")


class Later(Generic[T]):
    """A value being computed on another thread, or not yet started there."""

    def __init__(self, future: Future[T] | None, work: Callable[[], T]) -> None:
        self._future, self._work = future, work

    def result(self) -> T:
        # Work still queued (every helper busy with other requests' work) runs here instead:
        # a recall never waits behind another one's reads.
        if self._future is None or self._future.cancel():
            return self._work()
        return self._future.result()

    def drop(self) -> None:
        """Not needed after all: skipped when it has not started (else it finishes unread)."""
        if self._future is not None:
            self._future.cancel()


class Beside:
    """Runs small pieces of a request's work on ``executor`` while the request's own thread
    encodes; ``executor`` None runs each piece where its result is asked for (no thread)."""

    def __init__(self, executor: Executor | None) -> None:
        self.executor = executor

    def start(self, work: Callable[[], T]) -> Later[T]:
        return Later(None if self.executor is None else self.executor.submit(work), work)


_LOCK = threading.Lock()
_SHARED: list[Beside] = []


def shared_beside() -> Beside:
    """The process-wide helper threads (two: as many as the cores a small server gets; work finding
    both busy runs on the request's thread instead, see ``Later.result``)."""
    with _LOCK:
        if not _SHARED:
            _SHARED.append(Beside(ThreadPoolExecutor(max_workers=2, thread_name_prefix="memorysync-beside")))
        return _SHARED[0]
