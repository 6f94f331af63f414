"""What the capability and the middleware both offer: the constructor's arguments, attaching to
either AG2 line, and the explicit calls, all handed to one :class:`MemorySession`."""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from memorysync_core import Connection, LoopThread

from .backend import MemoryHit, SaveResult
from .classic import AgentHooks, check_attachable
from .dedup import DedupRegistry
from .lines import is_v1_agent
from .options import RecallOptions, WriteOptions, grouped_settings, merge
from .roles import RoleOverride
from .session import MemorySession, validate

log = logging.getLogger("ag2_memorysync")


class MemoryFront:
    """Long-term memory for one person, shared by every agent it is added to.

    Required: ``user_id`` (the person the memories belong to). The key comes from ``api_key=`` or
    ``MEMORYSYNC_API_KEY``, the server from ``base_url=`` or ``MEMORYSYNC_BASE_URL``.

    Recall (``recall=RecallOptions(...)``; its four settings the quick start names may also be
    keywords): an incoming message of at least ``min_prompt_chars`` (8) characters is recalled on
    (``top_k`` = 5 memories) within ``recall_timeout`` (1.2) seconds; the context reaches the
    model through ``context_template`` (``{context}`` is replaced literally). After
    ``RecallOptions.recall_breaker_threshold`` (3) failed recalls in a row, recall pauses for
    ``recall_breaker_cooldown`` (5) seconds, then one recall probes.

    Capture: ``capture="both"`` (default) records what attached agents send and receive,
    ``"sent"`` / ``"received"`` only one side. Turns go to the session transcript
    ``ag2::<session_id>`` in the background (``writes=WriteOptions(...)``): at most
    ``max_pending_writes`` (1000) held while the server is away, retried per ``retry``
    (:class:`RetryPolicy`), given ``exit_flush_timeout`` (2) seconds at exit without ``close()``.
    ``flush()`` / ``aflush()`` wait for them; ``close()`` / ``aclose()`` flush and release the
    connection. Those settings given as keywords (as before 0.3) still work, with a
    ``DeprecationWarning``.

    Also: ``project_id`` / ``tenant_id`` (skip discovery), ``metadata`` (scalars copied onto
    extracted facts), ``speaker_role`` (``agent -> "human" | "ai" | None``, classic agents: who
    speaks for the person), ``request_timeout`` (seconds for one HTTP call outside the recall
    budget); for tests and embedding: ``transport`` (an httpx async transport), ``clock``,
    ``loop`` (a :class:`memorysync_core.LoopThread`), ``dedup``.
    """

    def __init__(
        self,
        *,
        user_id: str,
        session_id: str = "default",
        api_key: str | None = None,
        base_url: str | None = None,
        project_id: str | None = None,
        tenant_id: str | None = None,
        recall: RecallOptions | None = None,
        writes: WriteOptions | None = None,
        top_k: int | None = None,
        recall_timeout: float | None = None,
        min_prompt_chars: int | None = None,
        context_template: str | None = None,
        capture: str = "both",
        metadata: Mapping[str, Any] | None = None,
        speaker_role: RoleOverride | None = None,
        request_timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
        loop: LoopThread | None = None,
        dedup: DedupRegistry | None = None,
        **deprecated: Any,
    ) -> None:
        grouped = grouped_settings(type(self).__name__, deprecated)
        loose = {
            "top_k": top_k,
            "recall_timeout": recall_timeout,
            "min_prompt_chars": min_prompt_chars,
            "context_template": context_template,
            **grouped["recall"],
        }
        owner = type(self).__name__
        validate(owner, user_id, session_id, capture, request_timeout)
        connection = Connection(
            api_key=api_key,
            base_url=base_url,
            project_id=project_id,
            tenant_id=tenant_id,
            timeout=request_timeout,
            async_transport=transport,
        )
        self.session = MemorySession(
            connection,
            user_id=user_id,
            session_id=session_id,
            recall=merge(recall, RecallOptions, loose),
            writes=merge(writes, WriteOptions, grouped["writes"]),
            capture=capture,
            metadata=metadata,
            request_timeout=request_timeout,
            clock=clock,
            loop=loop,
            dedup=dedup,
            owner=owner,
        )
        self._speaker_role = speaker_role
        self._attached: dict[int, tuple[Any, AgentHooks]] = {}
        # Weakly: the session outlives a dropped front only until the exit handlers run.
        catch_up = weakref.WeakMethod(self._catch_up)
        self.session.before_exit = lambda: (catch_up() or _nothing)()
        self._lock = threading.Lock()

    # -- settings, read-only -----------------------------------------------------------------------

    user_id = property(lambda self: self.session.user_id)
    session_id = property(lambda self: self.session.session_id)
    session_scope = property(lambda self: self.session.scope)
    capture = property(lambda self: self.session.capture)
    request_timeout = property(lambda self: self.session.request_timeout)
    recall_options = property(lambda self: self.session.recall_options)
    write_options = property(lambda self: self.session.write_options)
    top_k = property(lambda self: self.session.recall_options.top_k)
    recall_timeout = property(lambda self: self.session.recall_options.recall_timeout)
    min_prompt_chars = property(lambda self: self.session.recall_options.min_prompt_chars)
    context_template = property(lambda self: self.session.recall_options.context_template)
    exit_flush_timeout = property(lambda self: self.session.write_options.exit_flush_timeout)

    # -- attaching ---------------------------------------------------------------------------------

    def add_to_agent(self, agent: Any) -> None:
        """Attach to an AG2-classic ``ConversableAgent`` (two hooks, two reply functions) or an
        ag2 1.x ``Agent`` (as its innermost middleware); attaching the same agent again does nothing."""
        self.session.ensure_open("add_to_agent")
        if is_v1_agent(agent):
            from .v1.turn import attach  # imports ag2, which only a 1.x agent implies is installed

            attach(self, agent)
            return
        check_attachable(agent)
        with self._lock:
            if id(agent) in self._attached:
                return
            hooks = AgentHooks(self.session, agent, self._speaker_role)
            hooks.attach()
            self._attached[id(agent)] = (agent, hooks)

    def remove_from_agent(self, agent: Any) -> None:
        """Detach from ``agent`` (AG2 has no unregister API, so the hooks are taken off its lists)."""
        if is_v1_agent(agent):
            from .v1.turn import detach

            detach(self, agent)
            return
        with self._lock:
            entry = self._attached.pop(id(agent), None)
        if entry is not None:
            entry[1].detach()

    # -- explicit operations -----------------------------------------------------------------------

    def search(self, query: str, limit: int | None = None) -> list[MemoryHit]:
        """The person's memories most similar to ``query``, best first; raises MemorySyncError."""
        return self.session.search(query, limit)

    async def asearch(self, query: str, limit: int | None = None) -> list[MemoryHit]:
        return await self.session.asearch(query, limit)

    def save(self, text: str) -> SaveResult:
        """Store a fact about the person through ``/memory/add``; raises MemorySyncError."""
        return self.session.save(text)

    async def asave(self, text: str) -> SaveResult:
        return await self.session.asave(text)

    def history(self) -> list[dict[str, Any]]:
        """This session's transcript, oldest first: ``[{"id", "role", "content", "source", "created_at"}]``."""
        return self.session.history()

    async def ahistory(self) -> list[dict[str, Any]]:
        return await self.session.ahistory()

    def stats(self) -> dict[str, int]:
        """Counters since construction, plus ``queued`` (turns not yet written)."""
        return self.session.counters()

    def flush(self, timeout: float | None = 5.0) -> bool:
        """Capture what the attached agents received since they last replied (a group chat's
        last words), then wait until every captured turn was written (or given up on); False on
        timeout."""
        self._catch_up()
        return self.session.flush(timeout)

    async def aflush(self, timeout: float | None = 5.0) -> bool:
        self._catch_up()
        return await self.session.aflush(timeout)

    def close(self, timeout: float | None = 5.0) -> bool:
        """Flush, stop capturing and release the HTTP client; returns whether everything was written."""
        self._catch_up()
        return self.session.close(timeout)

    async def aclose(self, timeout: float | None = 5.0) -> bool:
        """``close()`` for async code: the caller's event loop keeps running while it flushes."""
        self._catch_up()
        return await self.session.aclose(timeout)

    def _catch_up(self) -> None:
        with self._lock:
            attached = [hooks for _, hooks in self._attached.values()]
        for hooks in attached:
            try:
                hooks.catch_up()
            except Exception:
                log.warning("MemorySync could not capture a group chat's last messages", exc_info=True)

    @property
    def closed(self) -> bool:
        return self.session.closed

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Any:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.session!r})"


def _nothing() -> None:
    pass
