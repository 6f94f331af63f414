"""How long an event loop could not run: a ticker beside the code under test, net of the
garbage collector.

A full collection stops every thread of the process, the loop's included, for as long as it
scans every object the imports made (agno, the server, ...): 70-120 ms on an idle machine and up
to 1.3 s seen under two CPU hogs (Python 3.13, ~118k tracked objects). That pause is the
interpreter's, not the waiting a test bounds, so it is taken out of the gap it fell in.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

__all__ = ["collector_pauses", "longest_stall", "net"]


@contextlib.contextmanager
def collector_pauses() -> Iterator[list[tuple[float, float]]]:
    """The (start, end) times on ``time.monotonic`` of the collections that run in the block."""
    pauses: list[tuple[float, float]] = []
    started: dict[int, float] = {}

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[info["generation"]] = time.monotonic()
        elif (began := started.pop(info["generation"], None)) is not None:
            pauses.append((began, time.monotonic()))

    gc.callbacks.append(note)
    try:
        yield pauses
    finally:
        gc.callbacks.remove(note)


def net(begin: float, end: float, pauses: list[tuple[float, float]]) -> float:
    """The time from ``begin`` to ``end`` less the collector's ``pauses`` in it."""
    held = sum(max(0.0, min(end, b) - max(begin, a)) for a, b in pauses)
    return end - begin - held


async def longest_stall(run: Callable[[], Awaitable[Any]], tick: float = 0.01) -> tuple[float, float]:
    """Run ``run()`` on this loop beside a ticker; returns the longest time the loop could not
    tick, less the collector's pauses in it, and how long ``run`` took (seconds)."""
    done = asyncio.Event()
    ticks: list[float] = []

    async def ticker() -> None:
        ticks.append(time.monotonic())
        while not done.is_set():
            await asyncio.sleep(tick)
            ticks.append(time.monotonic())

    with collector_pauses() as pauses:
        ticking = asyncio.create_task(ticker())
        began = time.monotonic()
        try:
            await run()
        finally:
            took = time.monotonic() - began
            done.set()
            await ticking
    gaps = [net(a, b, pauses) for a, b in itertools.pairwise(ticks)]
    return max(gaps, default=0.0), took
