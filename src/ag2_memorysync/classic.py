"""A :class:`~ag2_memorysync.session.MemorySession` on AG2-classic ``ConversableAgent`` s.

Attach is duck-typed on ``register_hook`` / ``hook_lists`` (this package never imports
``autogen``). Two hooks per agent:

* ``process_message_before_send``: the agent is the speaker; capture what it says.
* ``process_all_messages_before_reply``: capture what the agent received (the sender is found
  by identity in ``agent.chat_messages``), note what to recall on (in an async chat, start the
  recall on the background loop), and hand the reply functions a copy of the list to put the
  context in.

The recall is made by a reply function kept at the very front of the agent's reply functions,
so whichever function answers (``generate_oai_reply``, one registered with ``register_reply``,
a custom model client) gets the context: in a sync chat it sends the request from the chat's
own thread (no hop to the loop thread and back), in an async one it awaits the started recall
(the caller's loop runs on meanwhile). The block goes where the provider
accepts it (:mod:`ag2_memorysync.placement`) and ``messages[-1]``, which termination and tool
handling read, stays last.

``process_last_received_message`` is deliberately not used: autogen 0.14 writes its return
value back into the receiver's stored history, so the context would pile up turn after turn.
"""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Callable, Iterator
from typing import Any

from .content import as_dict, is_tool_traffic, spoken_text, text_of
from .placement import block_role, inject, insertion_index
from .recall import loop_running
from .roles import RoleOverride, role_of, sender_of, speaker_of
from .session import MemorySession
from .stack import callers
from .versions import INSTALL_HINT

log = logging.getLogger("ag2_memorysync")

HOOKS = ("process_all_messages_before_reply", "process_message_before_send")
_WAIT_MARK = "_memorysync_wait"


def check_attachable(agent: Any) -> None:
    hook_lists = getattr(agent, "hook_lists", None)
    if (
        not callable(getattr(agent, "register_hook", None))
        or not isinstance(hook_lists, dict)
        or not all(name in hook_lists for name in HOOKS)
    ):
        raise TypeError(
            f"MemorySyncCapability attaches to an AG2-classic ConversableAgent (with register_hook and "
            f"hook_lists) or an ag2 1.x Agent, got {type(agent).__name__}. For ag2 1.x pass "
            f"MemorySyncMiddleware(user_id=...) in Agent(middleware=[...]); for the classic line: "
            f"{INSTALL_HINT}"
        )


class AgentHooks:
    """The hooks and reply functions registered on one agent, and what that agent has already
    seen of each conversation. They never raise into the chat."""

    def __init__(self, session: MemorySession, agent: Any, speaker_role: RoleOverride | None = None) -> None:
        self.session = session
        self.agent = agent
        self.speaker_role = speaker_role
        self.sticky: dict[int, str] = {}  # last recalled context per conversation partner
        self.person_said: dict[int, str] = {}  # the person's latest words per conversation partner
        self._views: dict[int, _View] = {}  # how far each stored history was taken in
        # Partners of a nested chat this agent runs inside its reply to someone else
        # (register_nested_chats, a society of mind): the person is not in it (see in_nested_chat).
        # Held, not just their ids: a dead agent's id may be a new agent's.
        self.inner: dict[int, Any] = {}
        self.pending: _Pending | None = None  # a recall started by this reply's hook
        self._waits: tuple[Callable[..., Any], ...] = ()

    # -- registration ------------------------------------------------------------------------------

    def attach(self) -> None:
        self.agent.register_hook("process_all_messages_before_reply", self.before_reply)
        self.agent.register_hook("process_message_before_send", self.before_send)
        self._register_waits()

    def detach(self) -> None:
        for name, hook in zip(HOOKS, (self.before_reply, self.before_send), strict=True):
            hook_list = self.agent.hook_lists.get(name, [])
            if hook in hook_list:
                hook_list.remove(hook)
        funcs = getattr(self.agent, "_reply_func_list", None)
        if isinstance(funcs, list):
            funcs[:] = [entry for entry in funcs if entry.get("reply_func") not in self._waits]
        self._waits = ()
        self.drop_pending()

    def _register_waits(self) -> None:
        """Two reply functions that wait for the started recall, at the front of the agent's
        reply functions. The ``a_`` twin runs in async chats (it comes first, so the sync one
        then finds nothing to wait for); a sync chat skips it. Without reply functions to
        register, the hook waits itself."""
        agent = self.agent
        if not isinstance(getattr(agent, "_reply_func_list", None), list) or not callable(
            getattr(agent, "register_reply", None)
        ):
            return

        def memorysync_wait_for_recall(
            recipient: Any, messages: Any = None, sender: Any = None, config: Any = None
        ) -> tuple[bool, None]:
            pending, self.pending = self.pending, None
            if pending is not None and isinstance(messages, list):
                if pending.prompt is not None:  # a sync chat: the request goes out from here
                    context = self.session.recaller.recall(pending.prompt, pending.started)
                else:
                    context = self.session.recaller.wait(pending.future, pending.started)
                self._place(pending, messages, context)
            return False, None

        async def a_memorysync_wait_for_recall(
            recipient: Any, messages: Any = None, sender: Any = None, config: Any = None
        ) -> tuple[bool, None]:
            pending, self.pending = self.pending, None
            if pending is not None and isinstance(messages, list):
                if pending.prompt is not None:
                    context = await self.session.recaller.arecall(pending.prompt, pending.started)
                else:
                    context = await self.session.recaller.await_(pending.future, pending.started)
                self._place(pending, messages, context)
            return False, None

        for wait in (memorysync_wait_for_recall, a_memorysync_wait_for_recall):
            setattr(wait, _WAIT_MARK, True)
        agent.register_reply(_any_sender, memorysync_wait_for_recall, position=0)
        agent.register_reply(
            _any_sender, a_memorysync_wait_for_recall, position=0, ignore_async_in_sync_chat=True
        )
        self._waits = (memorysync_wait_for_recall, a_memorysync_wait_for_recall)

    def _keep_waits_first(self) -> None:
        """Put this agent's wait functions back in front when a reply function was registered
        before them after attaching (``register_reply`` inserts at position 0 by default): the
        function that answers must find the context already in place."""
        funcs = self.agent._reply_func_list
        first_other = next(
            (i for i, e in enumerate(funcs) if not getattr(e.get("reply_func"), _WAIT_MARK, False)),
            len(funcs),
        )
        if all(e.get("reply_func") not in self._waits for e in funcs[first_other:]):
            return
        ours = [e for e in funcs if e.get("reply_func") in self._waits]
        funcs[:] = ours + [e for e in funcs if e.get("reply_func") not in self._waits]

    # -- the hooks ---------------------------------------------------------------------------------

    def before_send(self, sender: Any, message: Any, recipient: Any, silent: bool) -> Any:
        try:
            self._on_sent(sender, message, recipient)
        except Exception:
            log.warning("MemorySync capture failed; the chat continues", exc_info=True)
        return message

    def before_reply(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        try:
            return self._on_reply(messages)
        except Exception:
            log.warning("MemorySync recall failed; the reply goes ahead without memories", exc_info=True)
            return messages

    def _on_sent(self, sender: Any, message: Any, recipient: Any) -> None:
        session = self.session
        if session.closed or is_manager(sender):
            return  # a group chat manager only relays what a member said
        if in_nested_chat(self.agent, recipient):
            self.inner[id(recipient)] = recipient
            return
        self.inner.pop(id(recipient), None)
        # What the agent received since it last spoke, in any of its chats, is older than what it
        # sends now: a chat that ended on a reply to it (initiate_chats, max_turns) left some.
        self.catch_up()
        position = self.send_position(recipient)
        if session.capture != "received":
            self._capture(speaker_of(sender, as_dict(message)), message, position, id(sender))

    def _on_reply(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        session = self.session
        started = session.clock()
        self.drop_pending()
        if session.closed or not messages or not isinstance(messages[-1], dict):
            return messages
        agent, last = self.agent, messages[-1]
        sender = sender_of(agent, messages)
        if sender is not None and (id(sender) in self.inner or in_nested_chat(agent, sender)):
            return messages  # a turn of a nested chat: neither the person's words nor about them
        person_said = self._take_in(sender, messages)
        if role_of(agent, self.speaker_role) == "human" or _is_termination(agent, last):
            return messages
        if is_tool_traffic(last):
            # A tool result: the model continues the same request, so it keeps the same context.
            return self._with_context(messages, self.sticky.get(id(sender), ""))
        # In a group chat the last message may be another agent's; what the person asked is what
        # the memories should be about.
        text = person_said or spoken_text(last)
        if len(text) < session.recall_options.min_prompt_chars:
            self.sticky[id(sender)] = ""
            return messages
        if not self._waits:
            context = session.recaller.recall(text, started)
            self.sticky[id(sender)] = context
            return self._with_context(messages, context)
        self._keep_waits_first()
        out = list(messages)
        if loop_running():
            # An async chat: start the recall now on the background loop; the wait function at
            # the front of the reply functions awaits it.
            self.pending = _Pending(session.recaller.start(text), started, id(sender))
        else:
            # A sync chat: the wait function sends the request from this thread itself, which
            # saves the hop to the loop and back (two thread wake-ups per recall).
            self.pending = _Pending(None, started, id(sender), prompt=text)
        return out

    def catch_up(self) -> None:
        """Capture what the agent received since it last replied. In a group chat every member
        receives every message, but its hooks run only when it replies: the words said after its
        last reply (often the person's last ones) would otherwise never be captured."""
        if self.session.closed or self.session.capture == "sent":
            return
        chats = getattr(self.agent, "chat_messages", None)
        if not isinstance(chats, dict):
            return
        for partner, messages in list(chats.items()):
            if isinstance(messages, list) and messages and id(partner) not in self.inner:
                self._take_in(partner, messages)

    def _with_context(self, messages: list[dict[str, Any]], context: str) -> list[dict[str, Any]]:
        if not context:
            return messages
        return inject(messages, self.session.block(context), block_role(self.agent))

    def _place(self, pending: _Pending, messages: list[dict[str, Any]], context: str) -> None:
        """Put a recalled ``context`` into the list the reply functions share (never a stored history)."""
        self.sticky[pending.partner] = context
        if not context or self.session.closed:
            return
        block = {"role": block_role(self.agent), "content": self.session.block(context)}
        messages.insert(insertion_index(messages), block)

    def _take_in(self, sender: Any, messages: list[dict[str, Any]]) -> str:
        """Capture every message the agent received since it last looked (each one once, with
        the role of whoever said it); returns the person's latest words in this conversation."""
        capture = self.session.capture != "sent"
        observer = id(self.agent)
        for position, message in self.unseen(sender, messages):
            if message.get("role") == "assistant" or is_tool_traffic(message):
                continue  # the agent's own words (its send hook saw them) or tool traffic
            speaker = speaker_of(sender, message)
            if is_manager(speaker):
                continue  # the manager's own notices (introductions), not anyone's words
            if role_of(speaker, self.speaker_role) == "human":
                self.person_said[id(sender)] = spoken_text(message)
            if capture:
                self._capture(speaker, message, position, observer)
        return self.person_said.get(id(sender), "")

    def _capture(self, speaker: Any, message: Any, position: int, observer: int) -> None:
        text = spoken_text(message)
        if text:
            self.session.capture_turn(role_of(speaker, self.speaker_role), text, position, observer=observer)

    def drop_pending(self) -> None:
        """Forget a recall no reply function waited for (the reply ended before reaching one)."""
        pending, self.pending = self.pending, None
        if pending is not None and pending.future is not None:
            pending.future.cancel()

    # -- positions ---------------------------------------------------------------------------------

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
    """A recall the reply hook started, waiting for the wait function."""

    def __init__(
        self,
        future: concurrent.futures.Future[str] | None,
        started: float,
        partner: int,
        prompt: str | None = None,
    ) -> None:
        self.future = future
        self.started = started
        self.partner = partner
        self.prompt = prompt  # not started yet: the wait function recalls on it


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


def in_nested_chat(agent: Any, partner: Any) -> bool:
    """Whether ``agent`` is talking to ``partner`` from inside its own reply to someone else.

    That is a nested chat: a reply function (``register_nested_chats``' summary, a society of
    mind) runs a chat of the agent's own before it answers. The person is not in it; its words
    are the agent's deliberation, and the reply it ends in is what the person hears. Found on the
    call stack: AG2 marks neither the start nor the end of a nested chat."""
    for frame in callers():
        if frame.f_code.co_name in _REPLY_FRAMES and frame.f_locals.get("self") is agent:
            sender = frame.f_locals.get("sender")
            if sender is not None and sender is not partner:
                return True
    return False


_REPLY_FRAMES = frozenset({"generate_reply", "a_generate_reply"})


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
