"""MemorySyncCapability: recall before every reply, capture every turn, for AG2-classic agents.

Attach is duck-typed on ``register_hook`` / ``hook_lists`` (this package never imports
``autogen``). Two hooks per agent:

* ``process_message_before_send``: the agent is the speaker; capture what it says.
* ``process_all_messages_before_reply``: capture what the agent received (the sender is found
  by identity in ``agent.chat_messages``), recall on it within the budget and hand the reply
  functions a deep copy with the context inserted where the provider accepts it (see
  :mod:`ag2_memorysync.placement`).

``process_last_received_message`` is deliberately not used: autogen 0.14 writes its return
value back into the receiver's stored history, so the context would pile up turn after turn.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Callable, Coroutine, Hashable, Iterator, Mapping
from typing import Any, TypeVar

import httpx

from memorysync_core import (
    Connection,
    LoopThread,
    MemorySyncError,
    fnv1a64,
    prepare_text,
    shared_loop,
    turn_seed,
)

from .backend import Backend, MemoryHit, PendingTurn, SaveResult
from .breaker import CircuitBreaker
from .content import as_dict, is_tool_traffic, spoken_text, text_of
from .dedup import DedupRegistry, default_registry
from .lines import is_v1_agent
from .placement import block_role, inject, insertion_index
from .recall import DEFAULT_CONTEXT_TEMPLATE, Recaller, render
from .roles import Role, RoleOverride, role_of, sender_of, speaker_of
from .sequence import next_seq
from .stats import Stats
from .turns import TurnLedger, default_ledger
from .versions import INSTALL_HINT
from .writer import RetryPolicy, TurnWriter

log = logging.getLogger("ag2_memorysync")

T = TypeVar("T")
CAPTURE_MODES = ("both", "received", "sent")
_HOOKS = ("process_all_messages_before_reply", "process_message_before_send")
_live: weakref.WeakSet[MemorySyncCapability] = weakref.WeakSet()


class MemorySyncCapability:
    """Long-term memory for AG2-classic ``ConversableAgent`` s, shared by every agent it is added to.

    Required: ``user_id`` (the person the memories belong to). The key comes from ``api_key=`` or
    ``MEMORYSYNC_API_KEY``, the server from ``base_url=`` or ``MEMORYSYNC_BASE_URL``.

    Recall: an incoming message of at least ``min_prompt_chars`` characters is recalled on
    (``top_k`` memories) within ``recall_timeout`` seconds; the context reaches the model through
    ``context_template`` (``{context}`` is replaced literally). Agents that speak for a person
    (see ``speaker_role``) get no recall: they do not call a model.

    Capture: ``capture="both"`` (default) records what attached agents send and receive,
    ``"sent"`` / ``"received"`` only one side. Turns go to the session transcript
    ``ag2::<session_id>`` in the background; ``flush()`` waits for them.

    Also: ``project_id`` / ``tenant_id`` (skip discovery), ``metadata`` (scalars copied onto
    extracted facts), ``speaker_role`` (``agent -> "human" | "ai" | None`` to override who speaks
    for the person), ``queue_size`` (captured turns held while the server is unreachable),
    ``retry`` (:class:`RetryPolicy`), ``request_timeout`` (seconds for one HTTP call outside the
    recall budget), ``exit_flush_timeout``, ``recall_breaker_threshold`` / ``recall_breaker_cooldown``
    (after that many failed recalls in a row, recall is skipped for that many seconds, then one
    recall probes the server); for tests and embedding: ``transport`` (an httpx
    async transport), ``clock``, ``loop`` (a :class:`memorysync_core.LoopThread`), ``dedup``.
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
        top_k: int = 5,
        recall_timeout: float = 1.2,
        min_prompt_chars: int = 8,
        context_template: str = DEFAULT_CONTEXT_TEMPLATE,
        capture: str = "both",
        metadata: Mapping[str, Any] | None = None,
        speaker_role: RoleOverride | None = None,
        queue_size: int = 1000,
        retry: RetryPolicy | None = None,
        request_timeout: float = 10.0,
        exit_flush_timeout: float = 2.0,
        recall_breaker_threshold: int = 3,
        recall_breaker_cooldown: float = 5.0,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
        loop: LoopThread | None = None,
        dedup: DedupRegistry | None = None,
    ) -> None:
        _validate(user_id, session_id, top_k, recall_timeout, min_prompt_chars, context_template, capture)
        if not isinstance(recall_breaker_threshold, int) or recall_breaker_threshold < 1:
            raise ValueError(
                f"recall_breaker_threshold must be an int >= 1 (failed recalls in a row that pause "
                f"recall), got {recall_breaker_threshold!r}."
            )
        if not isinstance(recall_breaker_cooldown, (int, float)) or recall_breaker_cooldown < 0:
            raise ValueError(
                f"recall_breaker_cooldown must be a number of seconds >= 0 (how long recall pauses), "
                f"got {recall_breaker_cooldown!r}."
            )
        if not isinstance(queue_size, int) or queue_size < 1:
            raise ValueError(
                f"queue_size must be an int >= 1 (turns held while the server is away), got {queue_size!r}."
            )
        if not isinstance(request_timeout, (int, float)) or request_timeout <= 0:
            raise ValueError(
                f"request_timeout must be a positive number of seconds, got {request_timeout!r}."
            )
        self.user_id = user_id
        self.session_id = session_id
        self.session_scope = f"ag2::{session_id}"
        self.top_k = top_k
        self.recall_timeout = recall_timeout
        self.min_prompt_chars = min_prompt_chars
        self.context_template = context_template
        self.capture = capture
        self.request_timeout = request_timeout
        self.exit_flush_timeout = exit_flush_timeout
        self._speaker_role = speaker_role
        self._clock = clock
        self._connection = Connection(
            api_key=api_key,
            base_url=base_url,
            project_id=project_id,
            tenant_id=tenant_id,
            timeout=request_timeout,
            async_transport=transport,
        )
        settings = self._connection.settings
        self._dedup = dedup if dedup is not None else default_registry()
        self._ledger: TurnLedger = default_ledger()
        self._dedup_scope = f"{settings.base_url}|{settings.project_id or ''}|{user_id}|"
        self._bridge = loop if loop is not None else shared_loop()
        self._stats = Stats()
        self._backend = Backend(
            self._connection, user_id=user_id, session_scope=self.session_scope, metadata=metadata
        )
        self._recaller = Recaller(
            self._backend,
            self._bridge,
            top_k=top_k,
            budget=recall_timeout,
            stats=self._stats,
            breaker=CircuitBreaker(recall_breaker_threshold, recall_breaker_cooldown, clock),
            clock=clock,
        )
        self._writer = TurnWriter(
            self._backend.append,
            self._bridge,
            queue_size=queue_size,
            policy=retry or RetryPolicy(),
            stats=self._stats,
            on_lost=self._forget,
            clock=clock,
        )
        self._attached: dict[int, tuple[Any, _AgentHooks]] = {}
        self._lock = threading.Lock()
        self._closed = False
        _live.add(self)
        # Warm the connection and the tenant off the hot path: the first reply should not pay for it.
        self._bridge.submit(self._warm())

    # -- attaching ---------------------------------------------------------------------------------

    def add_to_agent(self, agent: Any) -> None:
        """Attach to an AG2-classic ``ConversableAgent`` (two hooks) or an ag2 1.x ``Agent`` (as its
        innermost middleware); attaching the same agent again does nothing."""
        self._ensure_open("add_to_agent")
        if is_v1_agent(agent):
            from .v1 import attach  # imports ag2, which only a 1.x agent implies is installed

            attach(self, agent)
            return
        hook_lists = getattr(agent, "hook_lists", None)
        if (
            not callable(getattr(agent, "register_hook", None))
            or not isinstance(hook_lists, dict)
            or not all(name in hook_lists for name in _HOOKS)
        ):
            raise TypeError(
                f"MemorySyncCapability attaches to an AG2-classic ConversableAgent (with register_hook and "
                f"hook_lists) or an ag2 1.x Agent, got {type(agent).__name__}. For ag2 1.x pass "
                f"MemorySyncMiddleware(user_id=...) in Agent(middleware=[...]); for the classic line: "
                f"{INSTALL_HINT}"
            )
        with self._lock:
            if id(agent) in self._attached:
                return
            hooks = _AgentHooks(self, agent)
            agent.register_hook("process_all_messages_before_reply", hooks.before_reply)
            agent.register_hook("process_message_before_send", hooks.before_send)
            hooks.register_waits()
            self._attached[id(agent)] = (agent, hooks)

    def remove_from_agent(self, agent: Any) -> None:
        """Detach from ``agent`` (AG2 has no unregister API, so the hooks are taken off its lists)."""
        if is_v1_agent(agent):
            from .v1 import detach

            detach(self, agent)
            return
        with self._lock:
            entry = self._attached.pop(id(agent), None)
        if entry is None:
            return
        _, hooks = entry
        for name, hook in (
            ("process_all_messages_before_reply", hooks.before_reply),
            ("process_message_before_send", hooks.before_send),
        ):
            hook_list = agent.hook_lists.get(name, [])
            if hook in hook_list:
                hook_list.remove(hook)
        hooks.unregister_waits()

    # -- explicit operations -----------------------------------------------------------------------

    def search(self, query: str, limit: int | None = None) -> list[MemoryHit]:
        """The person's memories most similar to ``query``, best first; raises MemorySyncError."""
        self._ensure_open("search")
        return self._call(self._search(query, limit), "search")

    async def asearch(self, query: str, limit: int | None = None) -> list[MemoryHit]:
        self._ensure_open("asearch")
        return await self._acall(self._search(query, limit), "search")

    def save(self, text: str) -> SaveResult:
        """Store a fact about the person through ``/memory/add``; raises MemorySyncError."""
        self._ensure_open("save")
        return self._call(self._save(text), "save")

    async def asave(self, text: str) -> SaveResult:
        self._ensure_open("asave")
        return await self._acall(self._save(text), "save")

    def history(self) -> list[dict[str, Any]]:
        """This session's transcript, oldest first: ``[{"id", "role", "content", "source", "created_at"}]``."""
        self._ensure_open("history")
        return self._call(self._backend.transcript(), "history")

    async def ahistory(self) -> list[dict[str, Any]]:
        self._ensure_open("ahistory")
        return await self._acall(self._backend.transcript(), "history")

    def stats(self) -> dict[str, int]:
        """Counters since construction, plus ``queued`` (turns not yet written)."""
        return {**self._stats.snapshot(), "queued": self._writer.pending}

    def flush(self, timeout: float | None = 5.0) -> bool:
        """Wait until every captured turn was written (or given up on); False on timeout."""
        self._ensure_open("flush")
        return self._writer.flush(timeout)

    async def aflush(self, timeout: float | None = 5.0) -> bool:
        self._ensure_open("aflush")
        return await asyncio.to_thread(self._writer.flush, timeout)

    def close(self, timeout: float | None = 5.0) -> bool:
        """Flush, stop capturing and release the HTTP client; returns whether everything was written."""
        with self._lock:
            if self._closed:
                return True
            self._closed = True
        drained = self._writer.close(timeout)
        try:
            self._bridge.run(self._backend.aclose(), timeout=2.0)
        except Exception as exc:  # closing a client that is already gone is not worth raising
            log.debug("MemorySync client close: %r", exc)
        self._connection.close()
        _live.discard(self)
        return drained

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> MemorySyncCapability:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (
            f"MemorySyncCapability(user_id={self.user_id!r}, session_id={self.session_id!r}, "
            f"capture={self.capture!r}, {self._connection!r})"
        )

    # -- hook logic (called by _AgentHooks) --------------------------------------------------------

    def _on_sent(self, hooks: _AgentHooks, sender: Any, message: Any, recipient: Any) -> None:
        if self._closed or is_manager(sender):
            return  # a group chat manager only relays what a member said
        position = hooks.send_position(recipient)
        if self.capture != "received":
            self._capture(speaker_of(sender, as_dict(message)), message, position, id(sender))

    def _on_reply(self, hooks: _AgentHooks, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        started = self._clock()
        hooks.drop_pending()
        if self._closed or not messages or not isinstance(messages[-1], dict):
            return messages
        agent, last = hooks.agent, messages[-1]
        sender = sender_of(agent, messages)
        person_said = self._take_in(hooks, sender, messages)
        if role_of(agent, self._speaker_role) == "human" or _is_termination(agent, last):
            return messages
        if is_tool_traffic(last):
            # A tool result: the model continues the same request, so it keeps the same context.
            return self._with_context(hooks, messages, hooks.sticky.get(id(sender), ""))
        # In a group chat the last message may be another agent's; what the person asked is what
        # the memories should be about.
        text = person_said or spoken_text(last)
        if len(text) < self.min_prompt_chars:
            hooks.sticky[id(sender)] = ""
            return messages
        if not hooks.waits_registered:
            context = self._recaller.recall(text, started)
            hooks.sticky[id(sender)] = context
            return self._with_context(hooks, messages, context)
        # Start the recall now and let the reply function right before the model call wait for
        # it: blocking in a sync chat, awaiting in an async one, so the caller's loop runs on.
        out = list(messages)
        hooks.pending = _Pending(out, self._recaller.start(text), started, id(sender))
        return out

    def _with_context(
        self, hooks: _AgentHooks, messages: list[dict[str, Any]], context: str
    ) -> list[dict[str, Any]]:
        if not context:
            return messages
        self._stats.add("injected")
        return inject(messages, render(self.context_template, context), block_role(hooks.agent))

    def _place(
        self, hooks: _AgentHooks, pending: _Pending, messages: list[dict[str, Any]], context: str
    ) -> None:
        """Put a recalled ``context`` into the list the reply functions share (never a stored history)."""
        hooks.sticky[pending.partner] = context
        if not context or self._closed:
            return
        self._stats.add("injected")
        block = {"role": block_role(hooks.agent), "content": render(self.context_template, context)}
        messages.insert(insertion_index(messages), block)

    def _take_in(self, hooks: _AgentHooks, sender: Any, messages: list[dict[str, Any]]) -> str:
        """Capture every message the agent received since it last looked (each one once, with
        the role of whoever said it); returns the person's latest words in this conversation."""
        capture = self.capture != "sent"
        observer = id(hooks.agent)
        for position, message in hooks.unseen(sender, messages):
            if message.get("role") == "assistant" or is_tool_traffic(message):
                continue  # the agent's own words (its send hook saw them) or tool traffic
            speaker = speaker_of(sender, message)
            if is_manager(speaker):
                continue  # the manager's own notices (introductions), not anyone's words
            if role_of(speaker, self._speaker_role) == "human":
                hooks.person_said[id(sender)] = spoken_text(message)
            if capture:
                self._capture(speaker, message, position, observer)
        return hooks.person_said.get(id(sender), "")

    def _capture(self, speaker: Any, message: Any, position: int, observer: Hashable) -> None:
        text = spoken_text(message)
        if text:
            self._capture_turn(role_of(speaker, self._speaker_role), text, position, observer=observer)

    def _capture_turn(
        self, role: Role, text: str, position: int | None = None, *, observer: Hashable | None = None
    ) -> None:
        """Queue one utterance (``text`` already prepared) unless this sighting of it was handled
        already. ``position`` is the message's place in the person's conversation, seen by
        ``observer`` (default: this capability); see :mod:`ag2_memorysync.turns`. The ag2 1.x
        middleware captures through here too, so both lines share keys, ledger and queue."""
        seed = turn_seed(role, self.session_scope, text)
        if position is None:
            key = seed  # no position known: content alone identifies the turn
        else:
            who = observer if observer is not None else id(self)
            key = self._ledger.sight(self._dedup_scope + self.session_scope, position, seed, who)
        dedup_key = self._dedup_scope + key
        if not self._dedup.claim(dedup_key):
            self._stats.add("deduplicated")
            return
        self._writer.enqueue(
            PendingTurn(
                role="user" if role == "human" else "assistant",
                content=text,
                idempotency_key=key,
                speaker=seed,
                dedup_key=dedup_key,
                seq=next_seq(),
            )
        )

    def _forget(self, turns: list[PendingTurn]) -> None:
        for turn in turns:
            self._dedup.release(turn.dedup_key)

    # -- plumbing ----------------------------------------------------------------------------------

    def _ensure_open(self, what: str) -> None:
        if self._closed:
            raise MemorySyncError(
                f"{what}(): this MemorySyncCapability (user_id={self.user_id!r}, session_id="
                f"{self.session_id!r}) is closed; create a new one to keep using MemorySync."
            )

    async def _warm(self) -> None:
        try:
            await self._backend.warm()
        except Exception as exc:  # recall retries discovery within its own budget
            log.debug("MemorySync warm-up failed: %r", exc)

    async def _search(self, query: str, limit: int | None) -> list[MemoryHit]:
        if not isinstance(query, str) or not query.strip():
            raise ValueError("search() needs a non-empty query string")
        k = self.top_k if limit is None else limit
        if not 1 <= k <= 100:
            raise ValueError(f"search() limit must be between 1 and 100, got {k}")
        return await self._backend.query(prepare_text(query)[:4000], k)

    async def _save(self, text: str) -> SaveResult:
        if not isinstance(text, str) or not text.strip():
            raise ValueError("save() needs a non-empty text")
        prepared = prepare_text(text)
        # Saving the same fact twice in a session is one write (contract: client_ref idempotency).
        return await self._backend.add(prepared, f"ag2-save#h{fnv1a64(self.session_scope + ':' + prepared)}")

    def _call(self, coro: Coroutine[Any, Any, T], what: str) -> T:
        try:
            return self._bridge.run(coro, timeout=self.request_timeout + 1.0)
        except TimeoutError as exc:
            raise self._timeout_error(what) from exc
        except MemorySyncError as exc:
            raise _named(exc, what) from exc

    async def _acall(self, coro: Coroutine[Any, Any, T], what: str) -> T:
        future = self._bridge.submit(coro)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.request_timeout + 1.0)
        except asyncio.TimeoutError as exc:
            future.cancel()
            raise self._timeout_error(what) from exc
        except MemorySyncError as exc:
            raise _named(exc, what) from exc

    def _timeout_error(self, what: str) -> MemorySyncError:
        return MemorySyncError(
            f"{what}: no answer from {self._connection.settings.base_url} within "
            f"{self.request_timeout + 1.0:.1f}s; check the server or raise request_timeout="
        )


def _named(exc: MemorySyncError, what: str) -> MemorySyncError:
    """The same error, prefixed with the operation the caller asked for (the failing call may
    have been tenant discovery)."""
    return MemorySyncError(f"{what} failed: {exc}", status_code=exc.status_code, detail=exc.detail)


class _AgentHooks:
    """The two hooks registered on one agent, and what that agent has already seen of each
    conversation. They never raise into the chat."""

    def __init__(self, capability: MemorySyncCapability, agent: Any) -> None:
        self.capability = capability
        self.agent = agent
        self.sticky: dict[int, str] = {}  # last recalled context per conversation partner
        self.person_said: dict[int, str] = {}  # the person's latest words per conversation partner
        self._views: dict[int, _View] = {}  # how far each stored history was taken in
        self.pending: _Pending | None = None  # a recall started by this reply's hook
        self.waits_registered = False
        self._waits: tuple[Callable[..., Any], ...] = ()

    def before_send(self, sender: Any, message: Any, recipient: Any, silent: bool) -> Any:
        try:
            self.capability._on_sent(self, sender, message, recipient)
        except Exception:
            log.warning("MemorySync capture failed; the chat continues", exc_info=True)
        return message

    def before_reply(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        try:
            return self.capability._on_reply(self, messages)
        except Exception:
            log.warning("MemorySync recall failed; the reply goes ahead without memories", exc_info=True)
            return messages

    def register_waits(self) -> None:
        """Register the reply functions that wait for the started recall, right before the model
        call (after termination, tool and function handling, which read ``messages[-1]``). The
        ``a_`` twin runs in async chats and AG2 then skips the sync one; a sync chat skips the
        async one. Without a model reply function the hook waits itself."""
        agent, capability = self.agent, self.capability
        funcs = getattr(agent, "_reply_func_list", None)
        if not isinstance(funcs, list) or not callable(getattr(agent, "register_reply", None)):
            return
        names = [getattr(entry.get("reply_func"), "__name__", "") for entry in funcs]
        model = [i for i, name in enumerate(names) if name in ("generate_oai_reply", "a_generate_oai_reply")]
        if not model:
            return

        def memorysync_wait_for_recall(
            recipient: Any, messages: Any = None, sender: Any = None, config: Any = None
        ) -> tuple[bool, None]:
            pending, self.pending = self.pending, None
            if pending is not None and isinstance(messages, list):
                capability._place(
                    self, pending, messages, capability._recaller.wait(pending.future, pending.started)
                )
            return False, None

        async def a_memorysync_wait_for_recall(
            recipient: Any, messages: Any = None, sender: Any = None, config: Any = None
        ) -> tuple[bool, None]:
            pending, self.pending = self.pending, None
            if pending is not None and isinstance(messages, list):
                context = await capability._recaller.await_(pending.future, pending.started)
                capability._place(self, pending, messages, context)
            return False, None

        agent.register_reply(_any_sender, memorysync_wait_for_recall, position=model[0])
        agent.register_reply(
            _any_sender, a_memorysync_wait_for_recall, position=model[0], ignore_async_in_sync_chat=True
        )
        self._waits = (memorysync_wait_for_recall, a_memorysync_wait_for_recall)
        self.waits_registered = True

    def unregister_waits(self) -> None:
        funcs = getattr(self.agent, "_reply_func_list", None)
        if isinstance(funcs, list):
            funcs[:] = [entry for entry in funcs if entry.get("reply_func") not in self._waits]
        self.waits_registered = False
        self.drop_pending()

    def drop_pending(self) -> None:
        """Forget a recall no reply function waited for (the reply ended before the model call)."""
        pending, self.pending = self.pending, None
        if pending is not None and pending.future is not None:
            pending.future.cancel()

    def send_position(self, recipient: Any) -> int:
        """The position of the message this agent is about to send: the next index of its history
        with ``recipient`` (of the group chat's messages in a group)."""
        if is_manager(recipient):
            return len(recipient.groupchat.messages)
        return len(self.agent.chat_messages.get(recipient) or ())

    def unseen(self, sender: Any, messages: list[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
        """The messages of ``messages`` this agent has not taken in yet, with their positions.
        Only the new tail of a stored history is looked at, never all of it again."""
        chats = getattr(self.agent, "chat_messages", None)
        stored = chats.get(sender) if isinstance(chats, dict) and sender is not None else None
        if stored is not messages:
            # Messages handed to generate_reply directly: only the last one is new.
            yield len(messages) - 1, messages[-1]
            return
        view = self._views.get(id(sender))
        if view is None or view.reset_in(messages):
            view = self._views[id(sender)] = _View()
        start, view.seen = view.seen, len(messages)
        view.last = messages[-1]
        # In a group chat the position is the message's index in the group's record (the
        # members' own histories can differ, e.g. by the manager's introductions).
        record = sender.groupchat.messages if is_manager(sender) else None
        offset = len(record) - len(messages) if record is not None else 0
        for i in range(start, len(messages)):
            message = messages[i]
            if not isinstance(message, dict):
                continue
            if record is not None and _same_words(record, i + offset, message):
                yield i + offset, message
            else:
                yield i, message


class _Pending:
    """A recall the reply hook started, waiting for the reply function before the model call."""

    def __init__(
        self, out: list[Any], future: concurrent.futures.Future[str] | None, started: float, partner: int
    ) -> None:
        self.out = out
        self.future = future
        self.started = started
        self.partner = partner


def _any_sender(sender: Any) -> bool:
    return True


class _View:
    """How much of one stored history an agent has taken in, and how to tell it was reset."""

    def __init__(self) -> None:
        self.seen = 0
        self.last: Any = None

    def reset_in(self, messages: list[Any]) -> bool:
        # AG2 clears a history in place at the start of a chat; the object at the old end moves.
        return len(messages) < self.seen or (self.seen > 0 and messages[self.seen - 1] is not self.last)


def is_manager(agent: Any) -> bool:
    """A GroupChatManager (duck-typed: it holds a ``groupchat`` with ``messages``)."""
    return isinstance(getattr(getattr(agent, "groupchat", None), "messages", None), list)


def _same_words(record: list[Any], index: int, message: dict[str, Any]) -> bool:
    if not 0 <= index < len(record) or not isinstance(record[index], dict):
        return False
    return text_of(record[index].get("content")) == text_of(message.get("content"))


def _is_termination(agent: Any, message: dict[str, Any]) -> bool:
    check = getattr(agent, "_is_termination_msg", None)
    if not callable(check):
        return False
    try:
        return bool(check(message))
    except Exception:
        return False


def _validate(
    user_id: Any,
    session_id: Any,
    top_k: Any,
    recall_timeout: Any,
    min_prompt_chars: Any,
    context_template: Any,
    capture: Any,
) -> None:
    if not isinstance(user_id, str) or not user_id.strip():
        raise ValueError(
            "MemorySyncCapability needs user_id=, a non-empty string naming the person the memories "
            "belong to, e.g. MemorySyncCapability(user_id='customer-42')."
        )
    if not isinstance(session_id, str) or not session_id.strip():
        raise ValueError("session_id must be a non-empty string, e.g. session_id='support-chat'.")
    if capture not in CAPTURE_MODES:
        raise ValueError(
            f"capture must be one of {', '.join(repr(m) for m in CAPTURE_MODES)}, got {capture!r}: "
            f"'both' records what attached agents send and receive, 'sent'/'received' one side only."
        )
    if not isinstance(top_k, int) or not 1 <= top_k <= 100:
        raise ValueError(f"top_k must be an int between 1 and 100, got {top_k!r}.")
    if not isinstance(recall_timeout, (int, float)) or recall_timeout <= 0:
        raise ValueError(
            f"recall_timeout must be a positive number of seconds (default 1.2), got {recall_timeout!r}."
        )
    if not isinstance(min_prompt_chars, int) or min_prompt_chars < 0:
        raise ValueError(f"min_prompt_chars must be an int >= 0, got {min_prompt_chars!r}.")
    if not isinstance(context_template, str) or "{context}" not in context_template:
        raise ValueError(
            "context_template must be a string containing the placeholder {context}, "
            "where the recalled memories go."
        )


@atexit.register
def _flush_at_exit() -> None:
    # Runs while the daemon loop thread is still alive (and before memorysync_core stops it), so
    # queued turns get up to exit_flush_timeout each. Silent when everything was delivered.
    undelivered = 0
    for capability in list(_live):
        if capability.closed:
            continue
        with contextlib.suppress(Exception):
            if not capability._writer.flush(capability.exit_flush_timeout):
                undelivered += capability._writer.pending
    if undelivered:
        log.warning(
            "MemorySync: %d captured turn(s) could not be delivered before the process exited; "
            "call close(timeout=...) before exiting, or raise exit_flush_timeout=",
            undelivered,
        )
