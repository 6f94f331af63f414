"""Work a request hands to helper threads so that it overlaps the request's own.

Encoding a recall's prompt takes ~3.5 ms of ~8 at 100k memories, and ONNX Runtime lets go of the
interpreter lock while it runs, as sqlite3 does at every statement: the reads that need no vector
(~0.7 ms) run on a helper while the request's thread encodes. They are done when the encode ends,
so the request goes on at once; the encode on the helper made the request's thread wait for it to
be woken (0.2-0.5 ms more a recall over HTTP at 100k, measured interleaved).
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
        self._value: tuple[T] | None = None

    @classmethod
    def of(cls, value: T) -> Later[T]:
        """A value known already."""
        return cls(None, lambda: value)

    def result(self) -> T:
        """The value (computed once, however often it is asked for)."""
        if self._value is None:
            # Work still queued (every helper busy with other requests' work) runs here
            # instead: a recall never waits behind another one's.
            if self._future is None or self._future.cancel():
                self._value = (self._work(),)
            else:
                self._value = (self._future.result(),)
        return self._value[0]

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
