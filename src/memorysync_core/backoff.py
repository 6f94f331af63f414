"""When to try a failed call again, and how long to wait first: one rule for every adapter."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass

from .errors import MemorySyncError


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with equal jitter: attempt ``n`` waits between half and all of
    ``min(cap, base * 2 ** (n - 1))`` seconds, so retries of many clients spread out."""

    base: float = 0.2
    cap: float = 2.0

    def __post_init__(self) -> None:
        if not 0 < self.base <= self.cap:
            raise ValueError(f"backoff needs 0 < base <= cap, got base={self.base!r}, cap={self.cap!r}")

    def delay(self, attempt: int, rng: Callable[[], float] = random.random) -> float:
        step = min(self.cap, self.base * 2.0 ** max(attempt - 1, 0))
        return float(step / 2 + step / 2 * rng())


def retryable(exc: BaseException) -> bool:
    """A failure that the same request, sent again later, may get past: no answer (within the
    budget or at all), a 5xx, or a 429 other than the plan limit, which waits for a new month."""
    if isinstance(exc, MemorySyncError):
        return exc.transient and not exc.limit_exceeded
    return isinstance(exc, (TimeoutError, asyncio.TimeoutError))
