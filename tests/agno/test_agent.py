"""Real agno Agents (sync ``run``) with MemorySync as the memory store; only the LLM is scripted."""

from __future__ import annotations

import enum
import uuid

import pytest
from agno.agent import Agent
from agno.db.schemas.memory import UserMemory
from agno.db.sqlite import SqliteDb
from agno.media import Image
from agno.memory import MemoryManager

from agno_memorysync import MemorySyncDb, MemorySyncMemoryOnlyError

from .conftest import memory_agent
from .scripted import ScriptedModel

# A 1x1 PNG.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f"
    "0005000201a5d5b0e90000000049454e44ae426082"
)


@pytest.fixture
def model():
    return ScriptedModel()


@pytest.fixture
def agent(tmp_path, db, model):
    # The recommended wiring: sessions local, memories in MemorySync.
    return memory_agent(model, SqliteDb(db_file=str(tmp_path / "agent.db")), db, user_id="customer-42")


def memories(db, user="customer-42"):
    return sorted(m.memory for m in db.get_user_memories(user_id=user))


def test_update_memory_on_run_adds_updates_and_deletes_through_agnos_tools(agent, db, raw, model):
    first = agent.run("Hi! I like tea.")
    assert first.status.value == "COMPLETED"
    (tea,) = db.get_user_memories(user_id="customer-42")
    assert tea.memory == "User likes tea" and tea.input == "Hi! I like tea." and tea.agent_id == agent.id
    assert tea.topics == ["preferences"]
    assert [f["text"] for f in raw.facts("customer-42")] == ["User likes tea"]  # extracted server-side

    agent.run("I live in Oslo")
    (oslo,) = [m for m in db.get_user_memories(user_id="customer-42") if "Oslo" in m.memory]
    agent.run("Big news: I moved to Bergen")  # agno's update_memory tool
    (bergen,) = [m for m in db.get_user_memories(user_id="customer-42") if "lives in" in m.memory]
    assert bergen.memory == "User lives in Bergen" and bergen.memory_id == oslo.memory_id
    assert bergen.created_at == oslo.created_at  # the update tool reset it; the db kept the first
    assert {f["text"] for f in raw.facts("customer-42")} == {"User likes tea", "User lives in Bergen"}

    agent.run("Please forget that I like tea")  # agno's delete_memory tool
    assert memories(db) == ["User lives in Bergen"]
    assert [f["text"] for f in raw.facts("customer-42")] == ["User lives in Bergen"]

    answer = agent.run("What do you know about me?")
    assert answer.content == "memories: ['User lives in Bergen']"  # injected into the system prompt
    assert model.transcript.tool_results.count("Memory added successfully") == 2
    assert "Memory updated successfully" in model.transcript.tool_results
    assert "Memory deleted successfully" in model.transcript.tool_results
    # sessions went to the local SqliteDb, never to MemorySync
    assert agent.get_session(session_id=answer.session_id) is not None


def test_agentic_memory_tool(tmp_path, db, model):
    agent = memory_agent(
        model,
        SqliteDb(db_file=str(tmp_path / "agent.db")),
        db,
        user_id="u-agentic",
        update_memory_on_run=False,
        enable_agentic_memory=True,
    )
    result = agent.run("remember: I like jazz")
    assert result.status.value == "COMPLETED"
    assert memories(db, "u-agentic") == ["User likes jazz"]
    assert agent.get_user_memories(user_id="u-agentic")[0].memory == "User likes jazz"


def test_an_image_run_keeps_the_memory_input(agent, db):
    agent.run("Look at this photo, I like tea", images=[Image(content=PNG, format="png")])
    (memory,) = db.get_user_memories(user_id="customer-42")
    assert memory.memory == "User likes tea" and memory.input == "Look at this photo, I like tea"


def test_memory_manager_search_user_memories_every_retrieval_method(server, model):
    ticks = iter(range(1_800_000_000, 1_800_001_000, 10))
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, clock=lambda: next(ticks))
    manager = MemoryManager(model=model, db=db)
    manager.add_user_memory(UserMemory(memory="User likes tea", topics=["food"]), user_id="u")
    manager.add_user_memory(UserMemory(memory="User lives in Oslo"), user_id="u")
    manager.add_user_memory(UserMemory(memory="User has a dog"), user_id="u")

    def search(method, **kw):
        return [m.memory for m in manager.search_user_memories(retrieval_method=method, user_id="u", **kw)]

    assert search("last_n", limit=2) == ["User lives in Oslo", "User has a dog"]
    assert search("first_n", limit=1) == ["User likes tea"]
    assert search("agentic", query="tea", limit=5) == ["User likes tea"]
    assert search(None) == ["User likes tea", "User lives in Oslo", "User has a dog"]
    assert manager.get_user_memories(user_id="nobody") == []


class SortOrder(str, enum.Enum):  # what AgentOS passes (agno.os.schema.SortOrder)
    ASC = "asc"
    DESC = "desc"


def test_the_calls_agnos_agentos_memory_router_makes(db):
    # Exactly the calls of agno/os/routers/memory/memory.py.
    created = db.upsert_user_memory(
        memory=UserMemory(
            memory_id=str(uuid.uuid4()), memory="User likes tea", topics=["food"], user_id="ui"
        ),
        deserialize=False,
    )
    assert isinstance(created, dict) and created["memory"] == "User likes tea" and created["updated_at"]
    db.upsert_user_memory(
        memory=UserMemory(memory_id=str(uuid.uuid4()), memory="User lives in Oslo", topics=[], user_id="ui"),
        deserialize=False,
    )
    rows, total = db.get_user_memories(
        limit=20,
        page=1,
        agent_id=None,
        team_id=None,
        topics=None,
        search_content=None,
        sort_by="updated_at",
        sort_order=SortOrder.DESC,
        deserialize=False,
        user_id="ui",
    )
    assert total == 2 and {r["memory"] for r in rows} == {"User likes tea", "User lives in Oslo"}
    # what UserMemorySchema.from_dict reads from each row
    assert all({"memory_id", "memory", "user_id", "updated_at", "topics"} <= set(r) for r in rows)
    one = db.get_user_memory(memory_id=created["memory_id"], deserialize=False, user_id="ui")
    assert one["memory"] == "User likes tea"
    assert db.get_all_memory_topics(user_id="ui") == ["food"]
    stats, count = db.get_user_memory_stats(limit=20, page=1, user_id="ui")
    assert count == 1 and stats[0]["total_memories"] == 2
    # PATCH: the router re-upserts with the same id
    db.upsert_user_memory(
        memory=UserMemory(
            memory_id=created["memory_id"], memory="User likes green tea", topics=["food"], user_id="ui"
        ),
        deserialize=False,
    )
    assert db.get_user_memory(memory_id=created["memory_id"], user_id="ui").memory == "User likes green tea"
    db.delete_user_memory(memory_id=created["memory_id"], user_id="ui")
    db.delete_user_memories(memory_ids=[r["memory_id"] for r in rows], user_id="ui")
    assert db.get_user_memories(limit=20, page=1, deserialize=False, user_id="ui") == ([], 0)


def test_using_it_as_the_agents_session_db_fails_with_the_right_wiring(db, model):
    agent = Agent(model=model, db=db, update_memory_on_run=True, user_id="u", telemetry=False)
    with pytest.raises(
        MemorySyncMemoryOnlyError, match=r"Agent\(db=SqliteDb\(.*memory_manager=MemoryManager"
    ):
        agent.run("I like tea")
    assert db.get_user_memories(user_id="u") == []
