"""The hard budget and the writer under real failures: a closed port, a slow socket, 5xx, 429,
plan limits, a server that goes away mid-chat; and chats inside asyncio."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from ag2_memorysync import MemorySyncCapability, RecallOptions, RetryPolicy, WriteOptions
from memorysync_server.http.quota import Quota
from tests.ag2.scripted import assistant, person, sequence, time_reply_hooks
from tests.ag2.test_chat import memory_messages
from tests.support.ticks import longest_stall

# These bounds are worth something only at the budget users get: make_memory keeps the default.
pytestmark = pytest.mark.product_budget

MARGIN = 0.25  # seconds over the budget a hook may take: scheduling, deep copy, logging

LINES = ["I moved to Lisbon last spring.", "I work as a nurse at the city hospital."]
OPENING = "I prefer window seats when I fly."
REPLIES = ["Noted.", "Lisbon is lovely.", "Nursing is demanding work."]


def run_chat(memory: MemorySyncCapability):
    """A three-turn chat with ``memory`` on the assistant; returns the hook durations and the model log."""
    bot, model = assistant(sequence(REPLIES))
    durations = time_reply_hooks(bot, memory.add_to_agent)
    user = person(LINES)
    result = user.initiate_chat(bot, message=OPENING, silent=True)
    return durations, model, result, bot, user


def expected_transcript() -> list[tuple[str, str]]:
    spoken = [OPENING, *LINES]
    return [pair for i in range(3) for pair in (("user", spoken[i]), ("assistant", REPLIES[i]))]


def assert_passed_through_unchanged(model, result) -> None:
    assert len(model.calls) == 3
    assert all(memory_messages(call) == [] for call in model.calls)
    assert [call[-1]["content"] for call in model.calls] == [OPENING, *LINES]
    assert [m["content"] for m in result.chat_history] == [x for _, x in expected_transcript()]


def wait_until(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def recall_warnings(caplog) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and "recall failed" in r.getMessage()
    ]


def test_dead_server_the_chat_goes_on_within_budget(dead_url, uid, caplog):
    memory = MemorySyncCapability(user_id=uid, api_key="ms_test_x", base_url=dead_url)
    durations, model, result, *_ = run_chat(memory)
    assert len(durations) == 3 and max(durations) < memory.recall_timeout + MARGIN
    assert_passed_through_unchanged(model, result)
    warnings = recall_warnings(caplog)
    assert 1 <= len(warnings) <= 3 and "could not reach the server" in warnings[0]
    assert memory.stats()["recall_failed"] == 3
    assert not memory.close(timeout=0.3), "nothing could be written"


def test_slow_server_each_hook_returns_within_the_budget(make_memory, server, stored, uid, caplog):
    memory = make_memory(session_id="slow")
    assert memory.flush(1)
    server.faults.set(delay=5.0)
    try:
        durations, model, result, *_ = run_chat(memory)
    finally:
        server.faults.clear()
    assert len(durations) == 3
    assert max(durations) < memory.recall_timeout + MARGIN, durations
    assert_passed_through_unchanged(model, result)
    assert recall_warnings(caplog) and "no answer within the time budget" in recall_warnings(caplog)[0]
    # Writes were slow, not lost.
    assert memory.flush(20)
    assert stored.transcript(uid, "slow") == expected_transcript()


def test_an_answer_that_trickles_in_does_not_hold_the_chat_past_the_budget(make_memory, server, uid):
    # Every read gets a byte, so a client that times each read on its own never times out (a
    # 0.3 s budget held a sync chat 3.7 s): the chat still waits no longer than the budget.
    memory = make_memory(session_id="trickle", recall_timeout=0.3)
    memory.save("I live in Lisbon and I love trams.")
    assert memory.flush(1)
    server.faults.set(trickle=0.05, route="/v1/memory/recall")
    try:
        durations, model, result, *_ = run_chat(memory)
    finally:
        server.faults.clear()
    assert server.faults.hits >= 1
    assert len(durations) == 3
    assert max(durations) < 0.3 + MARGIN, durations
    assert_passed_through_unchanged(model, result)


@pytest.mark.parametrize("status", [503, 429])
def test_5xx_and_429_no_memories_this_turn_and_writes_retried_with_the_same_keys(
    make_memory, server, stored, uid, caplog, status
):
    memory = make_memory(
        session_id=f"status-{status}",
        writes=WriteOptions(retry=RetryPolicy(backoff_base=0.05, backoff_max=0.2)),
    )
    memory.save("I am vegetarian.")  # there is something to recall, so a missing block means degraded
    server.faults.set(status=status)
    durations, model, result, *_ = run_chat(memory)
    assert max(durations) < memory.recall_timeout + MARGIN
    assert_passed_through_unchanged(model, result)
    assert f"HTTP {status}" in recall_warnings(caplog)[0]
    assert wait_until(lambda: memory.stats()["retried"] >= 1), "the writer met the failure"
    server.faults.clear()
    assert memory.flush(10)
    assert stored.transcript(uid, f"status-{status}") == expected_transcript()
    stats = memory.stats()
    assert stats["retried"] >= 1 and stats["captured"] == 6 and stats["failed"] == 0


def test_over_quota_silent_mode_no_memories_and_one_warning(make_memory, server, stored, uid, caplog):
    key = server.add_key("ms_test_silentquota", quota=Quota(adds=0, reads=0))
    memory = make_memory(session_id="quota", api_key=key)
    durations, model, result, *_ = run_chat(memory)
    assert max(durations) < memory.recall_timeout + MARGIN
    assert_passed_through_unchanged(model, result)
    assert memory.flush(5)
    stats = memory.stats()
    assert stats["skipped"] == 6 and stats["captured"] == 0 and stats["failed"] == 0
    quota_warnings = [r for r in caplog.records if "quota" in r.getMessage() and r.levelno == logging.WARNING]
    assert len(quota_warnings) == 1
    assert stored.transcript(uid, "quota") == []


def test_over_quota_strict_429_no_memories_and_no_hammering(make_memory, server, stored, uid, caplog):
    key = server.add_key("ms_test_strictquota", quota=Quota(adds=0, reads=0, strict=True))
    memory = make_memory(session_id="strict", api_key=key)
    durations, model, result, *_ = run_chat(memory)
    assert max(durations) < memory.recall_timeout + MARGIN
    assert_passed_through_unchanged(model, result)
    assert "plan limit" in recall_warnings(caplog)[0]
    assert memory.flush(5)
    stats = memory.stats()
    assert stats["retried"] == 0, "a plan limit is not retried"
    assert stats["failed"] == 6 and stats["captured"] == 0


def test_outage_mid_chat_then_restart_every_turn_stored_exactly_once(make_memory, server, stored, uid):
    memory = make_memory(
        session_id="outage", writes=WriteOptions(retry=RetryPolicy(backoff_base=0.05, backoff_max=0.5))
    )
    bot, _ = assistant(sequence(["Noted.", "Lisbon is lovely.", "Nursing is demanding work."]))
    memory.add_to_agent(bot)
    lines = [
        lambda: (server.stop(), "I moved to Lisbon last spring.")[1],
        "I work as a nurse at the city hospital.",
    ]
    person(lines).initiate_chat(bot, message="I prefer window seats when I fly.", silent=True)
    assert memory.stats()["queued"] >= 1, "turns are waiting for the server"
    assert wait_until(lambda: memory.stats()["retried"] >= 1), "the writer met the outage"
    server.restart()
    assert memory.flush(15)
    assert stored.transcript(uid, "outage") == expected_transcript()
    stats = memory.stats()
    assert stats["captured"] == 6 and stats["failed"] == 0 and stats["dropped"] == 0 and stats["retried"] >= 1


def test_full_queue_drops_are_counted_and_logged_and_the_chat_never_blocks(dead_url, uid, caplog):
    memory = MemorySyncCapability(
        user_id=uid, api_key="ms_test_x", base_url=dead_url, writes=WriteOptions(max_pending_writes=1)
    )
    durations, _, result, *_ = run_chat(memory)
    assert max(durations) < memory.recall_timeout + MARGIN
    assert len(result.chat_history) == 6
    stats = memory.stats()
    assert stats["dropped"] >= 4 and stats["queued"] <= 2
    assert any("queue is full" in r.getMessage() for r in caplog.records)
    memory.close(timeout=0.2)
    assert memory.stats()["failed"] + memory.stats()["dropped"] == 6


def test_initiate_chat_inside_asyncio_run(make_memory, stored, uid):
    memory = make_memory(session_id="sync-in-loop")
    memory.save("I am allergic to peanuts.")
    bot, model = assistant(sequence(["Fruit then."]))
    memory.add_to_agent(bot)

    async def main():
        loop = asyncio.get_running_loop()
        person([]).initiate_chat(bot, message="What snack should I bring tonight?", silent=True)
        assert asyncio.get_running_loop() is loop and not loop.is_closed()
        return await memory.aflush(5)

    assert asyncio.run(main())
    assert "peanuts" in memory_messages(model.calls[0])[0]
    assert stored.transcript(uid, "sync-in-loop") == [
        ("user", "What snack should I bring tonight?"),
        ("assistant", "Fruit then."),
    ]


def test_a_initiate_chat_with_the_capability_on_both_agents(make_memory, stored, uid):
    memory = make_memory(session_id="async")
    memory.save("I am allergic to peanuts.")
    bot, model = assistant(sequence(["Fruit then.", "Enjoy the party."]))
    user = person(["The party is at my place in Porto."])
    memory.add_to_agent(bot)
    memory.add_to_agent(user)

    async def main():
        loop = asyncio.get_running_loop()
        await user.a_initiate_chat(bot, message="What snack should I bring tonight?", silent=True)
        hits = await memory.asearch("snack for the party")
        assert asyncio.get_running_loop() is loop and not loop.is_closed()
        return hits, await memory.aflush(5)

    hits, flushed = asyncio.run(main())
    # The search also finds what the person said ("The party is at my place"): the fact is among the hits.
    assert flushed and any("peanuts" in hit.text for hit in hits)
    assert "peanuts" in memory_messages(model.calls[0])[0]
    assert memory_messages(model.calls[1]) == [], "nothing relevant to the second message: no block"
    assert memory.stats()["recalled"] == 2
    assert stored.transcript(uid, "async") == [
        ("user", "What snack should I bring tonight?"),
        ("assistant", "Fruit then."),
        ("user", "The party is at my place in Porto."),
        ("assistant", "Enjoy the party."),
    ]


def test_a_initiate_chat_against_a_slow_server_never_holds_the_callers_loop(make_memory, server, stored, uid):
    """AG2 runs hooks synchronously on the caller's loop; the recall is awaited, not waited on."""
    memory = make_memory(session_id="stall", recall_timeout=1.0)
    memory.save("I am allergic to peanuts.")
    assert memory.flush(1)
    server.faults.set(delay=3.0, route="/v1/memory/recall")
    bot, model = assistant(sequence(["Fruit then.", "Enjoy the party."]))
    user = person(["What snack with peanuts is good for a party?"])
    memory.add_to_agent(bot)
    memory.add_to_agent(user)
    try:
        stall, took = asyncio.run(
            longest_stall(
                lambda: user.a_initiate_chat(bot, message="What peanut snack should I bring?", silent=True),
                tick=0.005,
            )
        )
    finally:
        server.faults.clear()
    assert memory.stats()["recall_failed"] == 2 and memory.stats()["recalled"] == 0
    assert took >= 2 * 1.0, "both replies waited for their recall, up to the budget"
    # Holding the loop for the recall would show as a gap of the whole budget; half of it leaves
    # room for a loaded machine (measured: ~0.05 s; 0.006 s without the capability).
    assert stall < 1.0 / 2, f"the caller's loop was held for {stall:.3f}s"
    assert all(memory_messages(call) == [] for call in model.calls)
    assert memory.flush(5)
    assert len(stored.transcript(uid, "stall")) == 4


def test_the_recall_circuit_breaker_pauses_recall_after_failures_then_probes_again(make_memory, server, uid):
    memory = make_memory(
        session_id="breaker",
        recall=RecallOptions(recall_timeout=0.3, recall_breaker_threshold=2, recall_breaker_cooldown=1.0),
    )
    memory.save("I live in Lisbon and I love trams.")
    assert memory.flush(1)
    server.faults.set(delay=3.0, route="/v1/memory/recall")

    def after_the_cooldown() -> str:
        time.sleep(1.1)
        server.faults.clear()  # the server recovered while recall was paused
        return "Which tram line goes to the castle in Lisbon?"

    bot, model = assistant(sequence(["Noted.", "Noted again.", "Lovely.", "Take tram 28."]))
    durations = time_reply_hooks(bot, memory.add_to_agent)
    user = person(["I love old trams in Lisbon.", "Trams in Lisbon are yellow.", after_the_cooldown])
    try:
        user.initiate_chat(bot, message="Tell me about trams in Lisbon please.", silent=True)
    finally:
        server.faults.clear()
    assert len(durations) == 4
    # Two recalls timed out, which opened the circuit; the third reply did not even ask.
    assert server.faults.hits == 2
    assert all(0.3 <= d < 0.3 + MARGIN for d in durations[:2]), durations
    assert durations[2] < 0.3 / 2, durations  # no wait at all: nothing near the budget
    assert all(memory_messages(call) == [] for call in model.calls[:3])
    # After the cooldown one recall probed the recovered server, and its memories came back.
    assert "trams" in memory_messages(model.calls[3])[0]
    stats = memory.stats()
    assert stats["recall_failed"] == 3 and stats["recalled"] == 1


@pytest.mark.parametrize(
    ("kwargs", "fix"),
    [
        ({"recall_breaker_threshold": 0}, "recall_breaker_threshold"),
        ({"recall_breaker_cooldown": -1}, "recall_breaker_cooldown"),
    ],
)
def test_breaker_settings_are_checked(dead_url, kwargs, fix):
    with pytest.raises(ValueError, match=fix):
        MemorySyncCapability(user_id="u", api_key="k", base_url=dead_url, recall=RecallOptions(**kwargs))


def test_these_tests_hold_the_default_budget(make_memory):
    assert make_memory().recall_timeout == RecallOptions().recall_timeout == 1.2
