"""A process-wide memory of turns already handed to the writer.

With the capability on both agents, the sender's ``process_message_before_send`` and the
receiver's reply hook both see every message. Whichever runs first claims the turn; the other
recognises it. Keys expire after a TTL so the registry stays small in long-running processes.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable


class DedupRegistry:
    def __init__(
        self, ttl: float = 600.0, max_entries: int = 100_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if ttl <= 0 or max_entries <= 0:
            raise ValueError("DedupRegistry needs ttl > 0 and max_entries > 0")
        self.ttl = ttl
        self.max_entries = max_entries
        self._clock = clock
        self._seen: OrderedDict[Hashable, float] = OrderedDict()
        self._lock = threading.Lock()

    def claim(self, key: Hashable) -> bool:
        """True when ``key`` is new (the caller handles the turn), False when it was seen."""
        now = self._clock()
        with self._lock:
            self._expire(now)
            if key in self._seen:
                return False
            self._seen[key] = now + self.ttl
            if len(self._seen) > self.max_entries:
                self._seen.popitem(last=False)
            return True

    def release(self, key: Hashable) -> None:
        """Forget ``key``, so a turn whose write was finally lost can be captured again."""
        with self._lock:
            self._seen.pop(key, None)

    def __len__(self) -> int:
        with self._lock:
            self._expire(self._clock())
            return len(self._seen)

    def _expire(self, now: float) -> None:
        # Insertion order is expiry order (one TTL for all), so only the head needs checking.
        while self._seen:
            key, expires = next(iter(self._seen.items()))
            if expires > now:
                break
            del self._seen[key]


_default = DedupRegistry()


def default_registry() -> DedupRegistry:
    return _default
