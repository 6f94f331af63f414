"""Both AG2 lines in one process, two 1.x agents, the capability on a 1.x agent, the memory
tools in 1.x form, and what importing the package pulls in."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from ag2 import Agent, MemoryStream
from ag2.events import ToolResultEvent
from ag2.testing import TestConfig

from ag2_memorysync import MemorySyncCapability, MemorySyncMiddleware, memory_tools
from tests.ag2.scripted import assistant, person, sequence
from tests.ag2_v1.scripted import Spy, agent, call_tool

OPENING = "I am vegan, and I moved to Oslo last spring."


def test_a_classic_agent_and_a_1x_agent_store_the_persons_message_once(make_memory, server, stored, uid):
    # Shadow mode: the person's message goes to the classic assistant and to a new 1.x agent.
    classic_memory = MemorySyncCapability(
        user_id=uid, session_id="shadow", api_key=server.api_key, base_url=server.base_url
    )
    try:
        bot, _ = assistant(sequence(["Classic: noted."]))
        classic_memory.add_to_agent(bot)
        person([]).initiate_chat(bot, message=OPENING, silent=True)

        v1_memory = make_memory(session_id="shadow")
        v1_bot, _ = agent(["New line: noted."], memory=v1_memory)
        asyncio.run(v1_bot.ask(OPENING))
        assert classic_memory.flush(5) and v1_memory.flush(5)
    finally:
        classic_memory.close()
    assert stored.transcript(uid, "shadow") == [
        ("user", OPENING),
        ("assistant", "Classic: noted."),
        ("assistant", "New line: noted."),
    ]
    assert v1_memory.stats()["deduplicated"] == 1


def test_two_1x_agents_on_one_conversation_store_one_utterance_once(make_memory, stored, uid):
    # Failover: the planner's provider fails after the person spoke; a backup agent, with its
    # own middleware, carries on the same conversation (stream) and sees that message again.
    first, second = make_memory(session_id="pair"), make_memory(session_id="pair")
    planner, _ = agent([RuntimeError("provider unavailable")], memory=first, name="planner")
    backup, spy = agent(["Backup: a vegan food tour on Friday."], memory=second, name="backup")
    stream = MemoryStream()

    async def chat():
        with pytest.raises(RuntimeError, match="provider unavailable"):
            await planner.ask(OPENING, stream=stream)
        return await backup.ask("Are you still there? Plan my Friday, please.", stream=stream)

    reply = asyncio.run(chat())
    assert reply.body == "Backup: a vegan food tour on Friday."
    assert [type(e).__name__ for e in spy.calls[0].events] == ["ModelRequest", "ModelRequest"]
    assert first.flush(5) and second.flush(5)
    assert stored.transcript(uid, "pair") == [
        ("user", OPENING),
        ("user", "Are you still there? Plan my Friday, please."),
        ("assistant", "Backup: a vegan food tour on Friday."),
    ]
    assert second.stats()["deduplicated"] == 1


def test_the_classic_capability_attaches_to_a_1x_agent_once_and_detaches(make_memory, server, stored, uid):
    memory = MemorySyncCapability(
        user_id=uid, session_id="attach", api_key=server.api_key, base_url=server.base_url
    )
    try:
        memory.save("User is allergic to peanuts")
        bot = Agent("assistant", config=TestConfig("No peanuts, promised.", "Bye."))
        memory.add_to_agent(bot)
        memory.add_to_agent(bot)
        spy = Spy()
        bot.add_middleware(spy)  # innermost: it records what the model received
        assert [m.description.kind for m in bot.middleware].count("MemorySyncCapability") == 1
        asyncio.run(bot.ask("Plan a snack for my peanut allergy."))
        assert "allergic to peanuts" in spy.prompt_text(0)

        memory.remove_from_agent(bot)
        assert all(m.description.kind != "MemorySyncCapability" for m in bot.middleware)
        asyncio.run(bot.ask("Another snack for my peanut allergy?"))
        assert "allergic to peanuts" not in spy.prompt_text(1)
        assert memory.flush(5)
    finally:
        memory.close()
    assert stored.transcript(uid, "attach") == [
        ("user", "Plan a snack for my peanut allergy."),
        ("assistant", "No peanuts, promised."),
    ]


def test_the_memory_tools_in_1x_form_save_and_search_for_the_model(make_memory, stored, uid):
    memory = make_memory(session_id="tools")
    bot, _ = agent(
        [
            call_tool("save_memory", fact="User prefers aisle seats on night flights"),
            call_tool("search_memory", query="aisle seats"),
            "Aisle seat on the night flight, as you like.",
        ],
        memory=memory,
        tools=memory.tools(),
    )
    reply = asyncio.run(bot.ask("Book the night flight to Oslo for me."))
    results = [e for e in asyncio.run(reply.history.get_events()) if isinstance(e, ToolResultEvent)]
    answers = [part.content for e in results for part in e.result.parts]
    assert answers[0] == "Saved to memory."
    assert "User prefers aisle seats on night flights" in answers[1]
    assert [schema.function.name for schema in (t.schema for t in memory_tools(memory))] == [
        "search_memory",
        "save_memory",
    ]
    # Explicit calls, sync and async, see the same memory; saving it again is one write.
    assert any("aisle" in hit.text for hit in memory.search("aisle seats"))
    again = asyncio.run(memory.asave("User prefers aisle seats on night flights"))
    assert again.status == "skipped" and again.reason == "already_ingested"
    # The tool calls and results are tool traffic: only the two spoken turns are in the transcript.
    assert memory.flush(5)
    assert stored.transcript(uid, "tools") == [
        ("user", "Book the night flight to Oslo for me."),
        ("assistant", "Aisle seat on the night flight, as you like."),
    ]


def test_the_memory_tools_answer_a_sentence_when_the_server_is_down(dead_url, uid):
    memory = MemorySyncMiddleware(user_id=uid, api_key="ms_test_x", base_url=dead_url, request_timeout=0.5)
    try:
        bot, _ = agent(
            [call_tool("search_memory", query="seats"), "Carrying on without memory."],
            tools=memory.tools(),
        )
        reply = asyncio.run(bot.ask("Which seat do I like?"))
        results = [e for e in asyncio.run(reply.history.get_events()) if isinstance(e, ToolResultEvent)]
        assert (
            results[0].result.parts[0].content
            == "Memory search is unavailable right now; continue without it."
        )
        assert reply.body == "Carrying on without memory."
    finally:
        memory.close(timeout=0.1)


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_importing_the_package_imports_neither_framework():
    done = run_python(
        "import sys, ag2_memorysync\n"
        "assert 'ag2' not in sys.modules and 'autogen' not in sys.modules, sorted(sys.modules)\n"
        "ag2_memorysync.MemorySyncMiddleware\n"
        "assert 'ag2' in sys.modules and 'autogen' not in sys.modules\n"
    )
    assert done.returncode == 0, done.stderr


def test_without_ag2_the_1x_names_say_what_to_install():
    done = run_python(
        "import sys\nsys.modules['ag2'] = None\n"
        "from ag2_memorysync import MemorySyncCapability\n"
        "from ag2_memorysync import MemorySyncMiddleware\n"
    )
    assert done.returncode != 0
    assert "pip install 'memorysync-kit[ag2-v1]'" in done.stderr
