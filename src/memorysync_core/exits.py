"""What happens at interpreter exit, in one handler: drain, then close, then stop the loop.

Every adapter object that queues writes or holds an HTTP client on the shared loop registers
here. One ``atexit`` handler then, in this order:

1. lets each member deliver what it queued, all within one deadline (the longest
   ``exit_flush_timeout`` of the members), and reports what could not be delivered once per
   adapter;
2. closes each member's HTTP client on the shared loop, so no connection is left for the
   garbage collector to report as an "unclosed transport" (and waits for the closes started
   when an unclosed owner was garbage collected earlier, ``close_when_dropped``);
3. cancels what is left on the shared loop and stops it.

A single handler keeps that order by construction instead of by the order in which modules
happened to call ``atexit.register``.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from .bridge import running_shared_loop

log = logging.getLogger("memorysync_core")


class Drainable(Protocol):
    @property
    def exit_flush_timeout(self) -> float:
        """Seconds this member may take to deliver its queue at exit."""

    def drain_at_exit(self, timeout: float) -> int:
        """Deliver what is queued within ``timeout`` seconds; return how much is left."""

    async def aclose_at_exit(self) -> None:
        """Close the HTTP client (runs on the shared loop)."""


_members: weakref.WeakKeyDictionary[Drainable, Callable[[int], None] | None] = weakref.WeakKeyDictionary()
_lock = threading.Lock()
_closing: set[concurrent.futures.Future[Any]] = set()


def register(member: Drainable, report: Callable[[int], None] | None = None) -> None:
    """Drain and close ``member`` at exit unless :func:`unregister` was called (``close()``).
    ``report(n)`` is called once with the total left undelivered by all members sharing it."""
    with _lock:
        _members[member] = report


def unregister(member: Drainable) -> None:
    with _lock:
        _members.pop(member, None)


def close_when_dropped(
    owner: object, aclose: Callable[[], Coroutine[Any, Any, Any]]
) -> weakref.finalize[[Callable[[], Coroutine[Any, Any, Any]]], object]:
    """When ``owner`` is garbage collected without having been closed, run ``aclose()`` (which
    must not reference ``owner``) on the shared loop, so its connections are closed instead of
    being reported as unclosed transports; exit waits for such closes to finish."""
    finalizer = weakref.finalize(owner, _close_dropped, aclose)
    finalizer.atexit = False  # alive at exit: run_exit_handlers closes it in order
    return finalizer  # detach() it when the owner is closed explicitly


def _close_dropped(aclose: Callable[[], Coroutine[Any, Any, Any]]) -> None:
    loop = running_shared_loop()
    if loop is None:
        return
    future = loop.submit(aclose())
    with _lock:
        _closing.add(future)
    future.add_done_callback(_closing.discard)


def run_exit_handlers(close_timeout: float = 1.0) -> None:
    with _lock:
        members = list(_members.items())
        _members.clear()
    started = time.monotonic()
    longest = max((m.exit_flush_timeout for m, _ in members), default=0.0)
    left: dict[Callable[[int], None], int] = {}
    for member, report in members:
        budget = min(member.exit_flush_timeout, longest - (time.monotonic() - started))
        undelivered = 0
        with contextlib.suppress(Exception):
            undelivered = member.drain_at_exit(max(budget, 0.0))
        if report is not None:
            left[report] = left.get(report, 0) + undelivered
    for report, count in left.items():
        if count:
            report(count)
    loop = running_shared_loop()
    if loop is None:
        return
    for member, _ in members:
        with contextlib.suppress(Exception):
            loop.run(member.aclose_at_exit(), timeout=close_timeout)
    with _lock:
        dropped = list(_closing)
    concurrent.futures.wait(dropped, timeout=close_timeout)
    loop.shutdown()


atexit.register(run_exit_handlers)
