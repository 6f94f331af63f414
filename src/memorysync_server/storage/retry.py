"""Running a unit of work again when the engine aborted it to settle a conflict.

PostgreSQL resolves a deadlock, or a serialization failure, by aborting one of the transactions
involved; everything it wrote is rolled back, so running the same work again is safe. Both
engines share this loop (SQLite's single writer never aborts one, so its loop runs once).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TypeVar

from ..domain import StorageConflict

T = TypeVar("T")

# Enough for a burst of writers on a few rows; each pause is short and grows, with jitter so
# the aborted parties do not meet again in the same order.
ATTEMPTS = 8
FIRST_PAUSE, LONGEST_PAUSE = 0.005, 0.25


def run_atomic(
    transaction: Callable[[], AbstractContextManager[None]],
    inside: bool,
    work: Callable[[], T],
    *,
    attempts: int = ATTEMPTS,
) -> T:
    """``work()`` in one unit of work from ``transaction()``, retried on :class:`StorageConflict`;
    ``inside`` (already in a unit of work) runs it there: the outermost ``atomic`` retries."""
    if inside:
        return work()
    pause = FIRST_PAUSE
    for attempt in range(attempts):
        try:
            with transaction():
                return work()
        except StorageConflict:
            if attempt == attempts - 1:
                raise
        time.sleep(random.uniform(0, pause))
        pause = min(pause * 2, LONGEST_PAUSE)
    raise AssertionError("unreachable")
