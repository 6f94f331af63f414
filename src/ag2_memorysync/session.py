"""One person's memory session: everything behind the AG2 hooks, whichever AG2 line they serve.

A :class:`MemorySession` owns the connection, the budgeted recall (its ``recaller``), the write
queue, the dedup claims and the turn keys, and the explicit search / save / history calls. The classic hooks
(:mod:`ag2_memorysync.classic`) and the ag2 1.x middleware (:mod:`ag2_memorysync.v1`) each hold
one and call only what is public here, so both lines share keys, ledger, queue and breaker.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from collections.abc import Callable, Coroutine, Hashable, Mapping
from typing import Any, TypeVar

from memorysync_core import (
    CircuitBreaker,
    Connection,
    LoopThread,
    MemorySyncError,
    exits,
    fnv1a64,
    prepare_text,
    shared_loop,
)

from .activity import RecallActivity
from .backend import Backend, MemoryHit, PendingTurn, SaveResult
from .dedup import DedupRegistry, default_registry
from .options import RecallOptions, WriteOptions
from .recall import Recaller, render
from .roles import Role
from .sequence import next_seq
from .stats import Stats
from .turns import TurnLedger, default_ledger
from .writer import TurnWriter

log = logging.getLogger("ag2_memorysync")

T = TypeVar("T")
CAPTURE_MODES = ("both", "received", "sent")


class MemorySession:
    """Recall, capture and the explicit calls for one ``user_id`` and ``session_id``."""

    def __init__(
        self,
        connection: Connection,
        *,
        user_id: str,
        session_id: str = "default",
        recall: RecallOptions | None = None,
        writes: WriteOptions | None = None,
        capture: str = "both",
        metadata: Mapping[str, Any] | None = None,
        request_timeout: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        loop: LoopThread | None = None,
        dedup: DedupRegistry | None = None,
        owner: str = "MemorySyncCapability",
    ) -> None:
        validate(owner, user_id, session_id, capture, request_timeout)
        self.user_id = user_id
        self.session_id = session_id
        self.scope = f"ag2::{session_id}"
        self.recall_options = recall or RecallOptions()
        self.write_options = writes or WriteOptions()
        self.capture = capture
        self.request_timeout = float(request_timeout)
        self.clock = clock
        self.owner = owner
        self.connection = connection
        settings = self.connection.settings
        self.stats = Stats()
        self._dedup = dedup if dedup is not None else default_registry()
        self._ledger: TurnLedger = default_ledger()
        # One person's conversation in this session: the same for every capability and
        # middleware on it, so their sightings of one message are one turn.
        self._conversation = f"{settings.base_url}|{settings.project_id or ''}|{user_id}|{self.scope}"
        self._bridge = loop if loop is not None else shared_loop()
        self._backend = Backend(self.connection, user_id=user_id, session_scope=self.scope, metadata=metadata)
        options = self.recall_options
        recalls = RecallActivity()
        # The hooks call the recaller itself (start, wait, recall, arecall): the budget, the
        # breaker and waiting for this chat's own writes are its concern, not the session's.
        self.recaller = Recaller(
            self._backend,
            self._bridge,
            top_k=options.top_k,
            budget=options.recall_timeout,
            stats=self.stats,
            breaker=CircuitBreaker(options.recall_breaker_threshold, options.recall_breaker_cooldown, clock),
            clock=clock,
            activity=recalls,
        )
        self._writer = TurnWriter(
            self._backend.append,
            self._bridge,
            max_pending=self.write_options.max_pending_writes,
            policy=self.write_options.retry,
            stats=self.stats,
            on_lost=self._forget,
            clock=clock,
            recalls=recalls,
        )
        self.recaller.writes = self._writer
        self._lock = threading.Lock()
        self._closed = False
        # What the owner captures last when the process exits without close() (the words a group
        # chat's member received after its last reply: MemoryFront's catch-up).
        self.before_exit: Callable[[], None] | None = None
        exits.register(self, _report_undelivered)
        # Warm the connection and the tenant off the hot path: the first reply should not pay for it.
        # The clients were built by Connection on this thread, so the loop only does the I/O.
        self._bridge.submit(self._warm())

    # -- recall ------------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def exit_flush_timeout(self) -> float:
        return self.write_options.exit_flush_timeout

    def block(self, context: str) -> str:
        """The text that carries ``context`` to the model; counts the injection."""
        self.stats.add("injected")
        return render(self.recall_options.context_template, context)

    # -- capture -----------------------------------------------------------------------------------

    def capture_turn(
        self, role: Role, text: str, position: int | None = None, *, observer: Hashable | None = None
    ) -> None:
        """Queue one utterance (``text`` already prepared) unless this sighting of it was handled
        already. ``position`` is the message's place in the person's conversation, seen by
        ``observer`` (default: this session); see :mod:`ag2_memorysync.turns`.

        This runs on the chat's thread, so it only claims and queues: the dedup key names the
        turn by ``hash(text)`` (computed in C, and the registry does not keep the text), and the
        contract's seed and key are hashed when the writer sends the turn."""
        if position is None:
            run = None  # no position known: content alone identifies the turn
        else:
            who = observer if observer is not None else id(self)
            run = self._ledger.run(self._conversation, position, who)
        dedup_key = (self._conversation, role, hash(text), run, position)
        if not self._dedup.claim(dedup_key):
            self.stats.add("deduplicated")
            return
        self._writer.enqueue(
            PendingTurn(
                role="user" if role == "human" else "assistant",
                content=text,
                scope=self.scope,
                dedup_key=dedup_key,
                seq=next_seq(),
                run=run,
                position=position,
            )
        )

    def _forget(self, turns: list[PendingTurn]) -> None:
        for turn in turns:
            self._dedup.release(turn.dedup_key)

    # -- explicit operations -----------------------------------------------------------------------

    def search(self, query: str, limit: int | None = None) -> list[MemoryHit]:
        self.ensure_open("search")
        return self._call(self._search(query, limit), "search")

    async def asearch(self, query: str, limit: int | None = None) -> list[MemoryHit]:
        self.ensure_open("asearch")
        return await self._acall(self._search(query, limit), "search")

    def save(self, text: str) -> SaveResult:
        self.ensure_open("save")
        return self._call(self._save(text), "save")

    async def asave(self, text: str) -> SaveResult:
        self.ensure_open("asave")
        return await self._acall(self._save(text), "save")

    def history(self) -> list[dict[str, Any]]:
        self.ensure_open("history")
        return self._call(self._backend.transcript(), "history")

    async def ahistory(self) -> list[dict[str, Any]]:
        self.ensure_open("ahistory")
        return await self._acall(self._backend.transcript(), "history")

    def counters(self) -> dict[str, int]:
        return {**self.stats.snapshot(), "queued": self._writer.pending}

    def flush(self, timeout: float | None = 5.0) -> bool:
        self.ensure_open("flush")
        return self._writer.flush(timeout)

    async def aflush(self, timeout: float | None = 5.0) -> bool:
        self.ensure_open("aflush")
        return await asyncio.to_thread(self._writer.flush, timeout)

    def close(self, timeout: float | None = 5.0) -> bool:
        """Flush, stop capturing and release the HTTP clients; whether everything was written."""
        with self._lock:
            if self._closed:
                return True
            self._closed = True
        exits.unregister(self)
        drained = self._writer.close(timeout)
        self.recaller.close()
        try:
            self._bridge.run(self._backend.aclose(), timeout=2.0)
        except Exception as exc:  # closing a client that is already gone is not worth raising
            log.debug("MemorySync client close: %r", exc)
        self.connection.close()
        return drained

    async def aclose(self, timeout: float | None = 5.0) -> bool:
        # The same close on a worker thread: its waits are bounded, and the caller's loop runs on.
        return await asyncio.to_thread(self.close, timeout)

    def ensure_open(self, what: str) -> None:
        if self._closed:
            raise MemorySyncError(
                f"{what}(): this {self.owner} (user_id={self.user_id!r}, session_id="
                f"{self.session_id!r}) is closed; create a new one to keep using MemorySync."
            )

    # -- exit (memorysync_core.exits) --------------------------------------------------------------

    def drain_at_exit(self, timeout: float) -> int:
        if not self._closed and self.before_exit is not None:
            self.before_exit()
        if self._closed or self._writer.flush(timeout):
            return 0
        return self._writer.pending

    async def aclose_at_exit(self) -> None:
        await self._backend.aclose()
        self.connection.close()  # the sync client (warmed; a sync chat's recall uses it)

    # -- plumbing ----------------------------------------------------------------------------------

    async def _warm(self) -> None:
        # Warm-ups take turns: a burst of new sessions then adds one connection setup at a time
        # to the loop, not all of them at once ahead of a warm session's recall.
        try:
            async with _warm_gate():
                await self._backend.warm()
                # A sync chat recalls over the sync client from its own thread: open that
                # connection too (on a worker thread, so the loop runs on).
                await asyncio.to_thread(self._backend.warm_now)
        except Exception as exc:  # recall retries discovery within its own budget
            log.debug("MemorySync warm-up failed: %r", exc)

    async def _search(self, query: str, limit: int | None) -> list[MemoryHit]:
        if not isinstance(query, str) or not query.strip():
            raise ValueError("search() needs a non-empty query string")
        k = self.recall_options.top_k if limit is None else limit
        if not 1 <= k <= 100:
            raise ValueError(f"search() limit must be between 1 and 100, got {k}")
        return await self._backend.query(prepare_text(query)[:4000], k)

    async def _save(self, text: str) -> SaveResult:
        if not isinstance(text, str) or not text.strip():
            raise ValueError("save() needs a non-empty text")
        prepared = prepare_text(text)
        # Saving the same fact twice in a session is one write (contract: client_ref idempotency).
        return await self._backend.add(prepared, f"ag2-save#h{fnv1a64(self.scope + ':' + prepared)}")

    def _call(self, coro: Coroutine[Any, Any, T], what: str) -> T:
        try:
            return self._bridge.run(coro, timeout=self.request_timeout + 1.0)
        except TimeoutError as exc:
            raise self._timeout_error(what) from exc
        except MemorySyncError as exc:
            raise _named(exc, what) from exc

    async def _acall(self, coro: Coroutine[Any, Any, T], what: str) -> T:
        try:
            return await self._bridge.arun(coro, timeout=self.request_timeout + 1.0)
        except TimeoutError as exc:
            raise self._timeout_error(what) from exc
        except MemorySyncError as exc:
            raise _named(exc, what) from exc

    def _timeout_error(self, what: str) -> MemorySyncError:
        return MemorySyncError(
            f"{what}: no answer from {self.connection.settings.base_url} within "
            f"{self.request_timeout + 1.0:.1f}s; check the server or raise request_timeout="
        )

    def __repr__(self) -> str:
        return (
            f"user_id={self.user_id!r}, session_id={self.session_id!r}, capture={self.capture!r}, "
            f"{self.connection!r}"
        )


_warm_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _warm_gate() -> asyncio.Semaphore:
    """One gate per loop (a Semaphore belongs to the loop it is used on); runs on that loop."""
    loop = asyncio.get_running_loop()
    gate = _warm_gates.get(loop)
    if gate is None:
        gate = _warm_gates[loop] = asyncio.Semaphore(1)
    return gate


def _named(exc: MemorySyncError, what: str) -> MemorySyncError:
    """The same error, prefixed with the operation the caller asked for (the failing call may
    have been tenant discovery)."""
    return MemorySyncError(f"{what} failed: {exc}", status_code=exc.status_code, detail=exc.detail)


def _report_undelivered(count: int) -> None:
    log.warning(
        "MemorySync: %d captured turn(s) could not be delivered before the process exited; "
        "call close(timeout=...) before exiting, or raise exit_flush_timeout=",
        count,
    )


def validate(owner: str, user_id: Any, session_id: Any, capture: Any, request_timeout: Any) -> None:
    if not isinstance(user_id, str) or not user_id.strip():
        raise ValueError(
            f"{owner} needs user_id=, a non-empty string naming the person the memories "
            f"belong to, e.g. {owner}(user_id='customer-42')."
        )
    if not isinstance(session_id, str) or not session_id.strip():
        raise ValueError("session_id must be a non-empty string, e.g. session_id='support-chat'.")
    if capture not in CAPTURE_MODES:
        raise ValueError(
            f"capture must be one of {', '.join(repr(m) for m in CAPTURE_MODES)}, got {capture!r}: "
            f"'both' records what attached agents send and receive, 'sent'/'received' one side only."
        )
    if (
        isinstance(request_timeout, bool)
        or not isinstance(request_timeout, (int, float))
        or request_timeout <= 0
    ):
        raise ValueError(f"request_timeout must be a positive number of seconds, got {request_timeout!r}.")
