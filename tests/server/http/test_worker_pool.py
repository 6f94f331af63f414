"""The pool that runs request work off the event loop: bounded, off the loop's thread, and a
cancelled request lets go only once its work is done (http/workers.py)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from memorysync_server.http.workers import WorkerPool


def test_work_runs_on_another_thread_and_its_errors_reach_the_caller() -> None:
    pool = WorkerPool(2)

    async def main() -> None:
        assert await pool.run(threading.get_ident) != threading.get_ident()
        with pytest.raises(ZeroDivisionError):
            await pool.run(divmod, 1, 0)

    asyncio.run(main())


def test_at_most_size_calls_run_at_once_and_the_rest_wait_their_turn() -> None:
    pool = WorkerPool(2)
    lock = threading.Lock()
    running, most = 0, 0
    release = threading.Event()

    def work(n: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        release.wait(10)
        with lock:
            running -= 1
        return n

    async def main() -> list[int]:
        calls = [asyncio.ensure_future(pool.run(work, n)) for n in range(5)]
        try:
            while True:  # until two calls run
                with lock:
                    if running >= 2:
                        break
                await asyncio.sleep(0.001)
            await asyncio.sleep(0.05)  # room for a third to start, were the pool unbounded
            with lock:
                assert running == 2
        finally:
            release.set()
        return list(await asyncio.gather(*calls))

    assert asyncio.run(main()) == [0, 1, 2, 3, 4]
    assert most == 2


def test_a_cancelled_call_returns_only_after_its_work_ended() -> None:
    pool = WorkerPool(1)
    started, release = threading.Event(), threading.Event()
    ended: list[bool] = []

    def work() -> None:
        started.set()
        release.wait(10)
        ended.append(True)

    async def main() -> None:
        call = asyncio.ensure_future(pool.run(work))
        while not started.is_set():
            await asyncio.sleep(0.001)
        call.cancel()
        await asyncio.sleep(0.01)
        assert not call.done()  # still waiting for the thread
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await call
        assert ended == [True]

    asyncio.run(main())
