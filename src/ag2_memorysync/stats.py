"""Thread-safe counters: hooks bump them on the chat's thread, the writer on the loop thread."""

from __future__ import annotations

import threading

COUNTERS = (
    "recalled",  # recall calls that answered
    "injected",  # replies whose model saw recalled context
    "recall_failed",  # turns that got no memories because recall failed or ran out of budget
    "captured",  # turns the server accepted into the transcript
    "deduplicated",  # sightings of a turn that was already handled
    "retried",  # write attempts repeated after a transient failure
    "dropped",  # turns lost because the queue was full
    "failed",  # turns given up on (non-retryable answer, or retried past the deadline)
    "skipped",  # turns the server answered with status "skipped" (over plan)
)


class Stats:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts = dict.fromkeys(COUNTERS, 0)

    def add(self, name: str, n: int = 1) -> None:
        with self._lock:
            self._counts[name] += n

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)
