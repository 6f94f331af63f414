"""AgentOS's memory routes on MemorySync, through AgentOS's real FastAPI app (in-process).

AgentOS serves /memories from the db it discovered: the agents' own ``db`` (sessions), or the
``db_id`` the caller names. The memories live in the MemoryManager's db, which AgentOS never
looks at. The wiring that fixes it, as the README shows: agno's own memory router, bound to the
MemorySync db, on a base app whose routes win over AgentOS's.
"""

from __future__ import annotations

import warnings

import pytest
from agno.agent import Agent
from agno.db.sqlite import AsyncSqliteDb
from agno.memory import MemoryManager
from fastapi import FastAPI

with warnings.catch_warnings():  # starlette's note that it would prefer httpx2
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from agno_memorysync import AsyncMemorySyncDb

from .scripted import ScriptedModel


def agent_os_app(memory_db, sessions_db, *, wired: bool):
    from agno.os import AgentOS
    from agno.os.routers.memory import get_memory_router

    model = ScriptedModel()
    agent = Agent(
        id="concierge",
        model=model,
        db=sessions_db,
        memory_manager=MemoryManager(model=model, db=memory_db),
        update_memory_on_run=True,
        telemetry=False,
    )
    if not wired:
        return AgentOS(agents=[agent], telemetry=False).get_app()
    base = FastAPI()
    agent_os = AgentOS(agents=[agent], base_app=base, on_route_conflict="preserve_base_app", telemetry=False)
    base.include_router(get_memory_router(dbs={memory_db.id: [memory_db]}, settings=agent_os.settings))
    return agent_os.get_app()


@pytest.fixture
def memory_db(server):
    return AsyncMemorySyncDb(api_key=server.api_key, base_url=server.base_url, id="memorysync")


def run(client, message, user):
    answer = client.post(
        "/agents/concierge/runs", data={"message": message, "user_id": user, "stream": "false"}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_agentos_memory_routes_list_search_update_and_delete_the_users_memories(tmp_path, memory_db, raw):
    app = agent_os_app(memory_db, AsyncSqliteDb(db_file=str(tmp_path / "agent.db")), wired=True)
    with TestClient(app, raise_server_exceptions=False) as client:
        run(client, "Hi! I like tea.", "alice")
        run(client, "I live in Oslo", "alice")
        run(client, "I like chess", "bob")
        assert {s["value"]["memory"] for s in raw.states("alice")} == {"User likes tea", "User lives in Oslo"}

        listed = client.get("/memories", params={"user_id": "alice"}).json()
        assert {m["memory"] for m in listed["data"]} == {"User likes tea", "User lives in Oslo"}
        assert listed["meta"]["total_count"] == 2 and {m["user_id"] for m in listed["data"]} == {"alice"}

        found = client.get("/memories", params={"user_id": "alice", "search_content": "tea"}).json()["data"]
        assert [m["memory"] for m in found] == ["User likes tea"]
        tea = found[0]["memory_id"]
        assert (
            client.get(f"/memories/{tea}", params={"user_id": "alice"}).json()["memory"] == "User likes tea"
        )
        assert (
            client.get(f"/memories/{tea}", params={"user_id": "bob"}).status_code == 404
        )  # never across users
        assert client.get("/memory_topics", params={"user_id": "alice"}).json() == ["location", "preferences"]
        stats = client.get("/user_memory_stats", params={"user_id": "alice"}).json()["data"]
        assert [(s["user_id"], s["total_memories"]) for s in stats] == [("alice", 2)]

        patched = client.patch(
            f"/memories/{tea}",
            json={"memory": "User likes green tea", "user_id": "alice", "topics": ["drinks"]},
        )
        assert patched.status_code == 200 and patched.json()["memory"] == "User likes green tea"
        assert raw.state("alice", tea)["value"]["memory"] == "User likes green tea"
        assert [f["text"] for f in raw.facts("alice") if "tea" in f["text"]] == ["User likes green tea"]

        # a delete that does not name the user deletes nothing, and says so (no fake 204)
        assert client.delete(f"/memories/{tea}").status_code == 500
        assert raw.state("alice", tea) is not None
        assert client.delete(f"/memories/{tea}", params={"user_id": "alice"}).status_code == 204
        assert raw.state("alice", tea) is None
        oslo = client.get("/memories", params={"user_id": "alice"}).json()["data"][0]["memory_id"]
        deleted = client.request("DELETE", "/memories", json={"memory_ids": [oslo], "user_id": "alice"})
        assert deleted.status_code == 204 and raw.states("alice") == []
        assert [s["value"]["memory"] for s in raw.states("bob")] == ["User likes chess"]
        # the rest of AgentOS still works off the agent's own db
        assert client.get("/sessions", params={"user_id": "alice"}).json()["meta"]["total_count"] == 2


def test_without_the_wiring_agentos_shows_the_session_dbs_empty_memory_table(tmp_path, memory_db, raw):
    # What the README warns about: memories are stored, but AgentOS's routes read the agent's db.
    app = agent_os_app(memory_db, AsyncSqliteDb(db_file=str(tmp_path / "agent.db")), wired=False)
    with TestClient(app) as client:
        run(client, "Hi! I like tea.", "alice")
        assert [s["value"]["memory"] for s in raw.states("alice")] == ["User likes tea"]
        assert client.get("/memories", params={"user_id": "alice"}).json()["data"] == []
