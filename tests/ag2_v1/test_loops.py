"""The caller's event loop under a slow or dead server, and loops that come and go."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

import pytest
from ag2 import Agent
from ag2.events import BaseEvent
from ag2.middleware import BaseMiddleware
from ag2.testing import TestConfig

from ag2_memorysync import MemorySyncMiddleware, RecallOptions, RetryPolicy, WriteOptions
from tests.support.ticks import longest_stall

# These bounds are worth something only at the budget users get: make_memory keeps the default.
pytestmark = pytest.mark.product_budget

MARGIN = 0.25  # seconds over the budget a model call may be held: scheduling, logging

QUESTIONS = [
    "I moved to Lisbon last spring, any tips?",
    "I work night shifts as a nurse, what should I pack?",
    "Any advice for my vegan diet while travelling?",
]


@dataclass
class Mark:
    """Middleware that notes when each model call passes it (real ag2 middleware, no patching)."""

    times: list[float] = field(default_factory=list)

    def __call__(self, event: BaseEvent, context) -> BaseMiddleware:
        times = self.times

        class Turn(BaseMiddleware):
            async def on_llm_call(self, call_next, events, context):
                times.append(time.perf_counter())
                return await call_next(events, context)

        return Turn(event, context)


def timed_agent(memory) -> tuple[Agent, Mark, Mark]:
    """An agent with ``memory`` between two marks: the gap is how long memory held the call."""
    entered, reached = Mark(), Mark()
    replies = [f"Answer {i}." for i in range(len(QUESTIONS))]
    bot = Agent("assistant", "You help.", config=TestConfig(*replies), middleware=[entered, memory, reached])
    return bot, entered, reached


async def ask_all_while_ticking(bot: Agent) -> float:
    """Ask every question on one conversation while a ticker on the same loop records its
    longest gap between ticks; returns that gap (seconds)."""

    async def ask_all() -> None:
        reply = await bot.ask(QUESTIONS[0])
        for question in QUESTIONS[1:]:
            reply = await reply.ask(question)

    return (await longest_stall(ask_all))[0]


def held(entered: Mark, reached: Mark) -> list[float]:
    return [b - a for a, b in zip(entered.times, reached.times, strict=True)]


def test_slow_server_each_model_call_is_held_at_most_the_budget_and_the_loop_runs_on(
    make_memory, server, stored, uid, caplog
):
    memory = make_memory(session_id="slow")
    assert memory.flush(1)
    server.faults.set(delay=5.0)
    try:
        bot, entered, reached = timed_agent(memory)
        longest_gap = asyncio.run(ask_all_while_ticking(bot))
    finally:
        server.faults.clear()
    delays = held(entered, reached)
    assert len(delays) == 3
    # Recall gave up at the budget, or the breaker skipped it; never longer.
    assert max(delays) < memory.recall_timeout + MARGIN, delays
    assert min(delays) > memory.recall_timeout - 0.1, "the first calls waited for the slow server"
    # While the memory waited (1.2 s per call), the caller's loop kept running: its longest gap
    # between 10 ms ticks stays far below one wait, even on a loaded machine.
    assert longest_gap < 0.5, longest_gap
    assert any("no answer within the time budget" in r.getMessage() for r in caplog.records)
    # Writes were slow, not lost.
    assert memory.flush(20)
    assert [role for role, _ in stored.transcript(uid, "slow")] == ["user", "assistant"] * 3


def test_dead_server_the_agent_answers_without_memories_within_the_budget(dead_url, uid, caplog):
    caplog.set_level(logging.WARNING, "ag2_memorysync")
    memory = MemorySyncMiddleware(user_id=uid, api_key="ms_test_x", base_url=dead_url)
    bot, entered, reached = timed_agent(memory)
    asyncio.run(ask_all_while_ticking(bot))
    assert max(held(entered, reached)) < memory.recall_timeout + MARGIN
    assert memory.stats()["recall_failed"] == 3 and memory.stats()["injected"] == 0
    assert not memory.close(timeout=0.3), "nothing could be written"


def test_several_event_loops_one_after_another_break_nothing(make_memory, stored, uid):
    memory = make_memory(session_id="loops")
    memory.save("User is vegan")
    bot, _, _ = timed_agent(memory)
    # One conversation, a new event loop per question (each closed when asyncio.run returns).
    reply = asyncio.run(bot.ask(QUESTIONS[0]))
    replies = [reply.body]
    for question in QUESTIONS[1:]:
        reply = asyncio.run(reply.ask(question))
        replies.append(reply.body)
    assert replies == ["Answer 0.", "Answer 1.", "Answer 2."]
    # Every call recalled on the shared background loop; the vegan question found the memory.
    assert memory.stats()["recalled"] == 3 and memory.stats()["recall_failed"] == 0
    assert memory.stats()["injected"] >= 1
    # And from inside a loop, with the async twins.
    assert asyncio.run(memory.aflush(5))
    hits = asyncio.run(memory.asearch("what does the user eat?"))
    assert any("vegan" in hit.text for hit in hits)
    assert [text for _, text in stored.transcript(uid, "loops")] == [
        line for pair in zip(QUESTIONS, replies, strict=True) for line in pair
    ]


def test_a_closed_memory_stays_out_of_the_way(make_memory):
    memory = make_memory()
    memory.close()
    bot, _, _ = timed_agent(memory)
    assert asyncio.run(bot.ask(QUESTIONS[0])).body == "Answer 0."
    assert memory.stats()["recalled"] == 0 and memory.stats()["queued"] == 0


def test_an_outage_mid_conversation_loses_no_turn_and_duplicates_none(make_memory, server, stored, uid):
    memory = make_memory(
        session_id="outage", writes=WriteOptions(retry=RetryPolicy(backoff_base=0.05, backoff_max=0.5))
    )
    bot, _, _ = timed_agent(memory)

    async def chat() -> list[str]:
        reply = await bot.ask(QUESTIONS[0])
        assert await memory.aflush(5)
        server.stop()  # the next two exchanges happen while the server is down
        replies = [reply.body]
        for question in QUESTIONS[1:]:
            reply = await reply.ask(question)
            replies.append(reply.body)
        return replies

    replies = asyncio.run(chat())
    assert memory.stats()["queued"] >= 1, "turns are waiting for the server"
    deadline = time.monotonic() + 5
    while memory.stats()["retried"] < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert memory.stats()["retried"] >= 1, "the writer met the outage"
    server.restart()
    assert memory.flush(15)
    assert stored.transcript(uid, "outage") == [
        turn
        for pair in zip(QUESTIONS, replies, strict=True)
        for turn in (("user", pair[0]), ("assistant", pair[1]))
    ]
    stats = memory.stats()
    assert stats["captured"] == 6 and stats["failed"] == 0 and stats["dropped"] == 0


def test_these_tests_hold_the_default_budget(make_memory):
    assert make_memory().recall_timeout == RecallOptions().recall_timeout == 1.2
