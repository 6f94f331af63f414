"""MemorySyncCapability: recall before every reply, capture every turn, for AG2 agents.

The name AG2-classic users attach (``memory.add_to_agent(assistant)``); everything it does is
:class:`~ag2_memorysync.front.MemoryFront`'s: hooks in :mod:`ag2_memorysync.classic`, the
session behind them in :mod:`ag2_memorysync.session`.
"""

from __future__ import annotations

from .front import MemoryFront


class MemorySyncCapability(MemoryFront):
    """Long-term memory for one person, for AG2-classic agents: ``memory.add_to_agent(agent)``.

    Before every reply of an attached agent, the person's memories relevant to the incoming
    message are recalled within ``recall_timeout`` and put before it in the model's messages
    (never into the stored history); every turn of the chat, both sides, is captured once and
    sent in the background to the session transcript, where the server extracts the person's
    facts. ``flush()`` / ``aflush()`` wait for the writes (first capturing what attached agents
    received since they last replied: a group chat's last words); ``close()`` / ``aclose()``
    flush and release the connection. ``search()``, ``save()`` and ``history()`` (and their
    async twins) reach the memory directly; ``stats()`` counts what happened.

    Every setting but ``user_id`` has a default. Recall settings go in ``recall=RecallOptions(...)``
    (the quick start's ``top_k``, ``recall_timeout``, ``min_prompt_chars`` and ``context_template``
    may also be keywords), write settings in ``writes=WriteOptions(...)``. The breaker and write
    settings given as keywords of their own (before 0.3) still work and warn
    (``DeprecationWarning``).

    Args:
        user_id: The person the memories belong to (required).
        session_id: Names the session transcript, ``ag2::<session_id>``.
        api_key: The MemorySync key; default ``MEMORYSYNC_API_KEY``.
        base_url: The server; default ``MEMORYSYNC_BASE_URL``, else the hosted service.
        project_id: The project, to skip its discovery.
        tenant_id: The tenant, to skip its discovery.
        recall: Every recall setting as one ``RecallOptions`` value (the circuit breaker's too).
        writes: Every write setting as one ``WriteOptions`` value: ``max_pending_writes``,
            ``retry``, ``exit_flush_timeout``.
        top_k: Memories recalled before a reply (5).
        recall_timeout: Seconds a reply waits for its recall at most (1.2).
        min_prompt_chars: Shorter messages are not recalled on (8).
        context_template: Where the memories go in the model's prompt; ``{context}`` is replaced
            literally.
        capture: ``"both"`` (what attached agents send and receive), ``"sent"`` or ``"received"``.
        metadata: Scalars copied onto the facts extracted from the captured turns.
        speaker_role: ``agent -> "human" | "ai" | None``: who speaks for the person (classic agents).
        request_timeout: Seconds for one HTTP call outside the recall budget (10).
        transport: An httpx async transport, for tests and embedding.
        clock: The monotonic clock budgets are measured with.
        loop: The ``memorysync_core.LoopThread`` the I/O runs on (default: one shared per process).
        dedup: The registry that makes two sightings of one message one turn.
    """
