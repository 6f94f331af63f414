"""What a failed call turns into: reads and (by default) writes fail open, deletes never do.

Memory is an enhancement of the agent, not a dependency of its answer: a MemorySync outage must
cost a user their memories for a turn, not the turn itself. A delete is different: reporting a
deletion that did not happen is how data a user asked to erase survives, so deletes always raise.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Literal

from memorysync_core import MemorySyncError

logger = logging.getLogger("agno_memorysync")

Kind = Literal["read", "write", "delete"]
# What the shells catch. asyncio.TimeoutError is a distinct class before Python 3.11.
FAILURES: tuple[type[BaseException], ...] = (MemorySyncError, TimeoutError, asyncio.TimeoutError)


@dataclass(frozen=True)
class Policy:
    recall_timeout: float = 1.2
    write_timeout: float = 10.0
    fail_open_writes: bool = True

    def __post_init__(self) -> None:
        for name in ("recall_timeout", "write_timeout"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"{name} must be a number of seconds > 0, got {value!r}")

    def budget(self, kind: Kind) -> float:
        """The total time one operation may take, every request and tenant discovery included."""
        return self.recall_timeout if kind == "read" else self.write_timeout

    def on_failure(self, kind: Kind, what: str, exc: BaseException, empty: Any = None) -> Any:
        """Log and return the fail-open answer, or raise a ``MemorySyncError`` saying what to do."""
        error = _as_memorysync_error(kind, what, exc, self.budget(kind))
        if kind == "read":
            # A wrong key or a rejected request is a setup bug, not an outage: say so louder.
            level = logging.ERROR if error.status_code in (401, 403, 404, 422) else logging.WARNING
            logger.log(level, "MemorySync %s failed open, answering with no memories: %s", what, error)
            return empty
        if kind == "write" and self.fail_open_writes:
            logger.error(
                "MemorySync %s FAILED, the memory was NOT stored (fail_open_writes=True keeps the agent "
                "running; pass fail_open_writes=False to raise instead): %s",
                what,
                error,
            )
            return empty  # None for one memory, [] for a batch
        logger.error("MemorySync %s failed: %s", what, error)
        if error is exc:
            raise error
        raise error from exc


def _as_memorysync_error(kind: Kind, what: str, exc: BaseException, budget: float) -> MemorySyncError:
    if isinstance(exc, MemorySyncError):
        return exc
    if kind == "delete":
        hint = "it may or may not have happened; deletes are idempotent, so retry it"
    elif kind == "write":
        hint = "it may or may not have been stored; an identical retry is a no-op on the server, so retry it"
    else:
        hint = "raise recall_timeout if the server is known to be slow"
    return MemorySyncError(f"{what}: no answer within the {budget:g}s budget ({hint})")
