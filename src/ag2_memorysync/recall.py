"""Budgeted recall.

The hook thread waits on the background loop for at most the budget; anything slower, any
error and an open circuit all mean "no memories this turn". Where the context goes in the
model's messages is :mod:`ag2_memorysync.placement`'s business.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from memorysync_core import LoopThread

from .backend import Backend, describe_failure
from .breaker import CircuitBreaker
from .stats import Stats

log = logging.getLogger("ag2_memorysync")

DEFAULT_CONTEXT_TEMPLATE = (
    "Long-term memory about the person you are talking with, from earlier conversations. "
    "Use it when it helps; do not mention that it was provided.\n{context}"
)


def render(template: str, context: str) -> str:
    # str.replace, not str.format: memories may contain braces and percent signs.
    return template.replace("{context}", context)


class Recaller:
    def __init__(
        self,
        backend: Backend,
        bridge: LoopThread,
        *,
        top_k: int,
        budget: float,
        stats: Stats,
        breaker: CircuitBreaker,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._backend = backend
        self._bridge = bridge
        self._top_k = top_k
        self._budget = budget
        self._stats = stats
        self._breaker = breaker
        self._clock = clock

    def recall(self, prompt: str, started: float | None = None) -> str:
        """The context block for ``prompt``, or ``""`` when there is none or no time for it."""
        if not self._breaker.allow():
            # The opening was logged once; a skipped turn is not worth a warning each time.
            self._stats.add("recall_failed")
            log.debug("MemorySync recall skipped: circuit open after repeated failures")
            return ""
        remaining = self._budget - (self._clock() - started if started is not None else 0.0)
        if remaining <= 0:
            self._stats.add("recall_failed")
            return ""
        try:
            context = self._bridge.run(self._backend.recall(prompt, self._top_k), timeout=remaining)
        except Exception as exc:
            self._stats.add("recall_failed")
            opened = self._breaker.failure()
            log.warning(
                "MemorySync recall failed, no memories this turn (%s)%s",
                describe_failure(exc),
                "; pausing recall while the server recovers" if opened else "",
            )
            return ""
        self._breaker.success()
        self._stats.add("recalled")
        return context
