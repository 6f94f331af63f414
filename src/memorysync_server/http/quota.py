"""Plan-limit simulation per key: the hosted service's silent mode, or strict ``429 limit_exceeded``."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from .errors import limit_exceeded


@dataclass(frozen=True)
class Quota:
    """A plan's limits for one key (``LocalServer.add_key(..., quota=Quota(adds=10))``).

    Args:
        adds: Writes allowed for the server's lifetime (None: unlimited).
        reads: Reads allowed (None: unlimited).
        strict: False (the hosted service's silent mode): over-limit writes answer
            ``status: "skipped"`` and reads come back empty. True: over-limit calls answer
            ``429 {"detail": {"error": "limit_exceeded", ...}}`` (evaluation keys always do).
    """

    adds: int | None = None
    reads: int | None = None
    strict: bool = False


class QuotaMeter:
    """Counts each key's adds and reads for the server's lifetime."""

    def __init__(self) -> None:
        self._used: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def admit(self, key: str, quota: Quota | None, kind: str) -> bool:
        """True when the call may proceed; False in silent mode when over; raises 429 in strict mode."""
        if quota is None:
            return True
        limit = quota.adds if kind == "adds" else quota.reads
        if limit is None:
            return True
        with self._lock:
            used = self._used.get((key, kind), 0)
            if used < limit:
                self._used[(key, kind)] = used + 1
                return True
        if quota.strict:
            raise limit_exceeded(
                f"This key's plan allows {limit} {kind}; it has used them all. Upgrade the plan, "
                "use another key, or wait for the quota to reset."
            )
        return False
