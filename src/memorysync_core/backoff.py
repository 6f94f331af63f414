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
    ``min(cap, base * 2 ** (n - 1))`` seconds, so retries of many clients spread out.

    Args:
        base: The first attempt's full step, in seconds.
        cap: The longest step, in seconds (at least ``base``).

    Raises:
        ValueError: ``base`` is not positive or exceeds ``cap``.
    """

    base: float = 0.2
    cap: float = 2.0

    def __post_init__(self) -> None:
        if not 0 < self.base <= self.cap:
            raise ValueError(f"backoff needs 0 < base <= cap, got base={self.base!r}, cap={self.cap!r}")

    def delay(self, attempt: int, rng: Callable[[], float] = random.random) -> float:
        """How long to wait before retry number ``attempt``.

        Args:
            attempt: 1 for the first retry, 2 for the second, ...
            rng: Uniform numbers in [0, 1) for the jitter (tests pass a fixed one).

        Returns:
            Seconds, between half and all of the attempt's step.
        """
        step = min(self.cap, self.base * 2.0 ** max(attempt - 1, 0))
        return float(step / 2 + step / 2 * rng())


def retryable(exc: BaseException) -> bool:
    """Whether the same request, sent again later, may get past this failure.

    Args:
        exc: What the call raised.

    Returns:
        True for no answer (within the budget or at all), a 5xx, a 408 or a 429 other than the
        plan limit (which waits for a new month); False for everything else.
    """
    if isinstance(exc, MemorySyncError):
        return exc.transient and not exc.limit_exceeded
    return isinstance(exc, (TimeoutError, asyncio.TimeoutError))
