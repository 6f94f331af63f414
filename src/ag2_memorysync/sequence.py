"""Transcript order across writers.

Each capability has its own writer, so with two capabilities on one session (one per agent)
turns can reach the server out of order. Every turn therefore carries ``seq``: wall-clock
microseconds taken when it was said, made strictly increasing within the process. The server
orders a transcript by ``seq``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Sequencer:
    def __init__(self, now_ns: Callable[[], int] = time.time_ns) -> None:
        self._now_ns = now_ns
        self._last = 0
        self._lock = threading.Lock()

    def next(self) -> int:
        with self._lock:
            self._last = max(self._last + 1, self._now_ns() // 1000)
            return self._last


_default = Sequencer()


def next_seq() -> int:
    return _default.next()
