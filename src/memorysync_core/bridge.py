"""A persistent background event loop: the one place async I/O runs for sync callers.

Sync framework hooks must never create, run or close an event loop of their own (the caller
may already be inside ``asyncio.run()``), and must never block longer than their budget. They
submit coroutines here and wait on a ``concurrent.futures.Future`` with a timeout.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """One asyncio loop running forever on a daemon thread.

    Args:
        name: The thread's name (shown in thread dumps).
    """

    def __init__(self, name: str = "memorysync-io") -> None:
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()
        self._ready.wait()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.call_soon(self._ready.set)
        self._loop.run_forever()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The event loop the thread runs."""
        return self._loop

    @property
    def alive(self) -> bool:
        """Whether the thread runs and its loop is open."""
        return self._thread.is_alive() and not self._loop.is_closed()

    def in_loop_thread(self) -> bool:
        """Whether the caller is the loop's own thread."""
        return threading.current_thread() is self._thread

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Schedule ``coro`` on the loop; never blocks.

        Args:
            coro: The coroutine to run.

        Returns:
            A future of its result.
        """
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None) -> T:
        """Run ``coro`` on the loop and wait at most ``timeout`` seconds.

        Args:
            coro: The coroutine to run.
            timeout: Seconds to wait, or None to wait as long as it takes.

        Returns:
            The coroutine's result.

        Raises:
            TimeoutError: It took longer (and was cancelled).
            RuntimeError: Called from the loop's own thread, where waiting would deadlock.
        """
        if self.in_loop_thread():
            coro.close()
            raise RuntimeError(
                "LoopThread.run() called from its own loop thread; await the coroutine instead"
            )
        future = self.submit(coro)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"gave up after {timeout:.3f}s") from None

    async def arun(self, coro: Coroutine[Any, Any, T], timeout: float | None) -> T:
        """Run ``coro`` on this loop and await it from another loop: the caller's loop keeps
        running meanwhile.

        Args:
            coro: The coroutine to run.
            timeout: Seconds to wait, or None to wait as long as it takes.

        Returns:
            The coroutine's result.

        Raises:
            TimeoutError: It took longer, or the caller was cancelled (the coroutine is cancelled).
        """
        future = self.submit(coro)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except asyncio.TimeoutError:
            future.cancel()
            raise TimeoutError(f"gave up after {timeout:.3f}s") from None

    def shutdown(self, timeout: float = 1.0) -> None:
        """Cancel every task still on the loop, let them finish, then stop and close the loop.

        A task left pending when the interpreter tears the daemon thread down is reported by
        asyncio as "Task was destroyed but it is pending!"; cancelling it first keeps exit quiet.

        Args:
            timeout: Seconds the cancelled tasks get to finish.
        """
        if not self.alive or self.in_loop_thread():
            return

        async def cancel_the_rest() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            if tasks:
                await asyncio.wait(tasks, timeout=timeout)

        with contextlib.suppress(Exception):
            self.run(cancel_the_rest(), timeout=timeout + 0.5)
        self.stop(timeout)

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the loop and close it once its thread has ended.

        Args:
            timeout: Seconds to wait for the thread.
        """
        if self._loop.is_closed():
            return
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout)
        if not self._thread.is_alive():
            self._loop.close()


_shared: LoopThread | None = None
_shared_lock = threading.Lock()


def shared_loop() -> LoopThread:
    """The process-wide loop thread, started on first use (and again after a fork). It is
    stopped at exit (`memorysync_core.exits`), after everything that used it was drained and closed."""
    global _shared
    with _shared_lock:
        if _shared is None or not _shared.alive:
            _shared = LoopThread()
        return _shared


def running_shared_loop() -> LoopThread | None:
    """The shared loop if it was started and still runs (exit handling must not start one)."""
    with _shared_lock:
        return _shared if _shared is not None and _shared.alive else None
