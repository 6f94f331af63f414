"""A circuit breaker: after repeated failures, stop calling a dead server for a while."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class CircuitBreaker:
    """Closed until ``threshold`` consecutive failures, then open for ``cooldown`` seconds; after
    that one call is let through (half-open) and its outcome closes or re-opens the circuit.

    Args:
        threshold: Consecutive failures that open the circuit (at least 1).
        cooldown: Seconds the circuit stays open.
        clock: Monotonic seconds (injected by tests).

    Raises:
        ValueError: ``threshold`` is below 1 or ``cooldown`` is negative.
    """

    def __init__(
        self, threshold: int = 5, cooldown: float = 5.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if threshold < 1 or cooldown < 0:
            raise ValueError("CircuitBreaker needs threshold >= 1 and cooldown >= 0")
        self.threshold = threshold
        self.cooldown = cooldown
        self._clock = clock
        self._failures = 0
        self._open_until: float | None = None
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        """Whether calls are being held back now."""
        return self.wait_time() > 0

    def wait_time(self) -> float:
        """Seconds until a call may be tried again; 0 when it may be tried now."""
        with self._lock:
            if self._open_until is None:
                return 0.0
            return max(0.0, self._open_until - self._clock())

    def allow(self) -> bool:
        """Whether a call may be tried now (closed, or the cooldown is over)."""
        return self.wait_time() == 0

    def success(self) -> None:
        """Record a success: the circuit closes and the failure count starts over."""
        with self._lock:
            self._failures = 0
            self._open_until = None

    def failure(self) -> bool:
        """Record a failure; True when this failure opened (or re-opened) the circuit."""
        with self._lock:
            self._failures += 1
            if self._failures >= self.threshold:
                self._open_until = self._clock() + self.cooldown
                return True
            return False
