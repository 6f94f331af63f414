"""``AsyncMemorySyncDb`` under ``Agent.arun``, and its misconfiguration."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from agno.db.schemas.memory import UserMemory
from agno.db.sqlite import AsyncSqliteDb, SqliteDb
from agno.memory import MemoryManager

from agno_memorysync import AsyncMemorySyncDb, MemorySyncClearAllError, MemorySyncError, MiswiredAsyncDbError

from .conftest import memory_agent
from .scripted import ScriptedModel

MARGIN = 1.0


@pytest.fixture
async def adb(server):
    memory_db = AsyncMemorySyncDb(api_key=server.api_key, base_url=server.base_url)
    yield memory_db
    await memory_db.close()


@pytest.fixture
async def agent_db(tmp_path):
    # Closed inside the test's own loop: aiosqlite threads must not outlive it.
    sessions = AsyncSqliteDb(db_file=str(tmp_path / "agent.db"))
    yield sessions
    await sessions.close()


def async_agent(agent_db, memory_db, model, **kwargs):
    return memory_agent(model, agent_db, memory_db, **kwargs)  # the agent's db must be async too


async def test_arun_stores_recalls_and_deletes_with_the_async_twin(agent_db, adb, raw):
    model = ScriptedModel()
    agent = async_agent(agent_db, adb, model)
    first = await agent.arun("I love coffee")
    assert first.status.value == "COMPLETED"
    (coffee,) = await adb.get_user_memories(user_id="u")
    assert coffee.memory == "User likes coffee" and coffee.input == "I love coffee"
    assert [f["text"] for f in raw.facts("u")] == ["User likes coffee"]
    second = await agent.arun("what do I like?")
    assert second.content == "memories: ['User likes coffee']"
    await agent.arun("forget that I like coffee")
    assert await adb.get_user_memories(user_id="u") == []
    assert raw.facts("u") == []


async def test_agentic_memory_under_arun(agent_db, adb):
    agent = async_agent(
        agent_db, adb, ScriptedModel(), update_memory_on_run=False, enable_agentic_memory=True
    )
    await agent.arun("remember: I like jazz")
    assert [m.memory for m in await adb.get_user_memories(user_id="u")] == ["User likes jazz"]


async def test_the_async_twin_behaves_like_the_sync_db(adb):
    stored = await adb.upsert_user_memory(
        UserMemory(memory="User likes green tea", memory_id="tea", user_id="u")
    )
    again = await adb.upsert_user_memory(
        UserMemory(memory="User likes green tea", memory_id="tea", user_id="u")
    )
    assert again == stored
    await adb.upsert_memories([UserMemory(memory="User has a dog named Rex", memory_id="dog", user_id="u")])
    assert (await adb.get_user_memory("tea", user_id="u")) == stored
    assert [m.memory_id for m in await adb.get_user_memories(user_id="u", search_content="dogs")] == ["dog"]
    assert (await adb.get_user_memories(user_id="u", limit=1, page=2, sort_by="memory", deserialize=False))[
        1
    ] == 2
    assert await adb.get_all_memory_topics(user_id="u") == []
    assert (await adb.get_user_memory_stats(user_id="u"))[0][0]["total_memories"] == 2
    await adb.delete_user_memory("tea", user_id="u")
    await adb.delete_user_memory("tea", user_id="u")  # already gone: a no-op
    with pytest.raises(MemorySyncClearAllError):
        adb.clear_memories()
    assert await adb.forget_user_memories("u") == 1
    assert await MemoryManager(db=adb).aget_user_memories(user_id="u") == []


async def test_async_failure_policy(server, dead_url):
    dead = AsyncMemorySyncDb(api_key="ms_test_x", base_url=dead_url, write_timeout=1)
    assert await dead.get_user_memories(user_id="u") == []
    queued = await dead.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="tea", user_id="u"))
    assert queued.memory_id == "tea" and dead.stats()["pending"] == 1
    with pytest.raises(MemorySyncError):
        await dead.delete_user_memory("tea", user_id="u")
    assert dead.stats()["pending"] == 0  # the delete took the queued write out: nothing to bring back
    await dead.close()
    strict = AsyncMemorySyncDb(api_key="ms_test_x", base_url=dead_url, fail_open_writes=False)
    with pytest.raises(MemorySyncError):
        await strict.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u"))
    server.faults.set(delay=5)
    slow = AsyncMemorySyncDb(api_key=server.api_key, base_url=server.base_url, recall_timeout=0.5)
    started = time.monotonic()
    assert await slow.get_user_memories(user_id="u") == []
    assert time.monotonic() - started < 0.5 + MARGIN


def test_one_async_db_serves_several_event_loops(server):
    db = AsyncMemorySyncDb(api_key=server.api_key, base_url=server.base_url)
    asyncio.run(db.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u")))
    # A second loop: the first loop's httpx client is closed with it, so this needs its own.
    assert [m.memory for m in asyncio.run(db.get_user_memories(user_id="u"))] == ["User likes tea"]


async def test_async_memory_db_with_a_sync_agent_db_names_the_fix(tmp_path, adb):
    # agno decides sync vs async memory calls on agent.db: this wiring used to fail with
    # "'coroutine' object is not iterable" (agno picks the path from the agent's db).
    model = ScriptedModel()
    agent = memory_agent(
        model,
        SqliteDb(db_file=str(tmp_path / "agent.db")),
        adb,
        update_memory_on_run=False,
        add_memories_to_context=True,
    )
    result = await agent.arun("hello")
    assert result.status.value == "ERROR"
    assert "AsyncSqliteDb" in result.content and "MemoryManager(db=AsyncMemorySyncDb())" in result.content
    with pytest.raises(MiswiredAsyncDbError, match="agent's"):
        MemoryManager(db=adb).get_user_memories(user_id="u")


async def test_an_un_awaited_write_is_reported_not_silent(adb, caplog):
    with caplog.at_level(logging.ERROR, logger="agno_memorysync"):
        MemoryManager(db=adb).add_user_memory(UserMemory(memory="User likes tea"), user_id="u")
    assert "never awaited" in caplog.text and "AsyncSqliteDb" in caplog.text
    assert await adb.get_user_memories(user_id="u") == []


async def test_async_methods_still_work_with_create_task_and_gather(adb):
    write = asyncio.create_task(
        adb.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="t", user_id="u"))
    )
    await write
    found, topics = await asyncio.gather(
        adb.get_user_memories(user_id="u"), adb.get_all_memory_topics(user_id="u")
    )
    assert [m.memory_id for m in found] == ["t"] and topics == []
