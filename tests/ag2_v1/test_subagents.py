"""ag2 1.x's multi-agent pattern: an agent delegates to another through ``Agent.as_tool`` (a
sub-task run by ag2's ``run_task``). The person talks to the first agent only. Whichever agents
carry the middleware, the person's memory holds the person's chat once; the delegation (the
first agent's request, the worker's answer) is not the person's chat and is stored nowhere. A
worker carrying the memory still recalls: it works on the person's behalf."""

from __future__ import annotations

import asyncio

import pytest

from tests.ag2_v1.scripted import agent, call_tool
from tests.ag2_v1.test_agent import memory_blocks

ASK = "I'm allergic to shellfish. Is the risotto safe for me?"
DELEGATED = "Does the risotto contain shellfish or shellfish stock?"
WORKER = "No shellfish in the risotto; the stock is vegetable."
ANSWER = "Yes, the risotto is safe for you."


def _pair(memory, on: str):
    worker, worker_spy = agent([WORKER], memory=memory if on in ("worker", "both") else None, name="kitchen")
    tool = worker.as_tool(description="Ask the kitchen about a dish's ingredients.")
    front, _ = agent(
        [call_tool(tool.name, objective=DELEGATED), ANSWER],
        memory=memory if on in ("front", "both") else None,
        name="concierge",
        tools=[tool],
    )
    return front, worker_spy


@pytest.mark.parametrize("on", ["front", "both", "worker"])
def test_the_person_chat_is_stored_once_and_the_delegation_nowhere(make_memory, stored, uid, on):
    memory = make_memory(session_id="dinner")
    front, _ = _pair(memory, on)
    reply = asyncio.run(front.ask(ASK))
    assert reply.body == ANSWER
    assert memory.flush(5)
    expected = [] if on == "worker" else [("user", ASK), ("assistant", ANSWER)]
    assert stored.transcript(uid, "dinner") == expected
    assert not any("shellfish stock" in fact for fact in stored.facts(uid))


def test_a_worker_with_the_memory_recalls_for_the_person(make_memory, stored, uid):
    memory = make_memory(session_id="dinner")
    memory.save("User is allergic to shellfish")
    front, worker_spy = _pair(memory, "both")
    asyncio.run(front.ask(ASK))
    assert memory.flush(5)
    [block] = memory_blocks(worker_spy.calls[0].prompt)
    assert "allergic to shellfish" in block
    assert stored.transcript(uid, "dinner") == [("user", ASK), ("assistant", ANSWER)]
