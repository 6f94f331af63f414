"""agno's own ``MemoryTools`` toolkit, driven by a real Agent for one user: it reads, updates and
deletes by id without passing ``user_id``, and must still reach that user's memories, and only
theirs. Deletes without ``user_id`` never report a success that did not happen."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from agno.agent import Agent
from agno.db.schemas.memory import UserMemory
from agno.db.sqlite import SqliteDb
from agno.models.message import Message
from agno.models.response import ModelResponse
from agno.tools.memory import MemoryTools

from agno_memorysync import MemoryNotFoundError

from .scripted import ScriptedBase

Step = Callable[[list[dict[str, Any]]], tuple[str, dict[str, Any]] | None]


@dataclass
class ToolScript(ScriptedBase):
    """Calls one tool per model turn, in order; each step sees the tool results so far (parsed)."""

    id: str = "tool-script"
    name: str = "ToolScript"
    provider: str = "local"
    steps: list[Step] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)

    def _reply(self, messages: list[Message], tools: list[dict[str, Any]] | None = None) -> ModelResponse:
        if messages[-1].role == "tool":
            self.results.append(json.loads(messages[-1].get_content_string()))
        if len(self.results) == len(self.steps):
            return ModelResponse(role="assistant", content="done")
        name, arguments = self.steps[len(self.results)](self.results)
        call = {
            "id": f"call_{len(self.results)}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        return ModelResponse(role="assistant", tool_calls=[call])


def run_tools(tmp_path, db, user_id: str, steps: list[Step]) -> list[dict[str, Any]]:
    model = ToolScript(steps=steps)
    agent = Agent(
        model=model,
        db=SqliteDb(db_file=str(tmp_path / "agent.db")),
        tools=[MemoryTools(db=db)],
        user_id=user_id,
        telemetry=False,
    )
    assert agent.run("manage my memories").status.value == "COMPLETED"
    return model.results


def test_every_memory_tool_works_for_the_agents_user_and_never_another(tmp_path, db):
    db.upsert_user_memory(UserMemory(memory="User likes chess", memory_id="bob-chess", user_id="bob"))

    def added_id(results):
        return results[0]["memory"]["memory_id"]

    results = run_tools(
        tmp_path,
        db,
        "alice",
        [
            lambda r: ("add_memory", {"memory": "User likes tea", "topics": ["drinks"]}),
            lambda r: ("get_memories", {}),
            lambda r: ("update_memory", {"memory_id": added_id(r), "memory": "User likes green tea"}),
            lambda r: ("update_memory", {"memory_id": "bob-chess", "memory": "User likes nothing"}),
            lambda r: ("delete_memory", {"memory_id": "bob-chess"}),
            lambda r: ("delete_memory", {"memory_id": added_id(r)}),
        ],
    )
    add, listed, update, update_other, delete_other, delete = results
    assert add["success"] and add["memory"]["user_id"] == "alice"
    assert [m["memory"] for m in listed] == ["User likes tea"]
    assert update["success"] and update["memory"]["memory"] == "User likes green tea"
    assert update["memory"]["user_id"] == "alice"
    # bob's memory id, asked for by alice's agent: not found, untouched
    assert update_other == {
        "success": False,
        "operation": "update_memory",
        "error": "Memory with ID bob-chess not found",
    }
    assert delete_other["success"] is False and "not found" in delete_other["error"]
    assert delete["success"] and delete["deleted_memory"]["memory"] == "User likes green tea"
    assert db.get_user_memories(user_id="alice") == []
    assert [m.memory for m in db.get_user_memories(user_id="bob")] == ["User likes chess"]
    assert db.get_user_memories() == []  # nothing leaked into the default user


def test_without_a_user_on_the_agent_the_toolkit_uses_the_default_user(tmp_path, db):
    results = run_tools(
        tmp_path,
        db,
        None,
        [
            lambda r: ("add_memory", {"memory": "User likes tea"}),
            lambda r: (
                "update_memory",
                {"memory_id": r[0]["memory"]["memory_id"], "memory": "User likes jazz"},
            ),
        ],
    )
    assert all(r["success"] for r in results)
    assert [m.memory for m in db.get_user_memories()] == ["User likes jazz"]


def test_a_delete_without_user_id_outside_a_run_never_fakes_success(db):
    db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="tea", user_id="alice"))
    with pytest.raises(MemoryNotFoundError, match=r"user_id=\.\.\."):
        db.delete_user_memory("tea")  # looks under the default user: nothing there
    db.upsert_user_memory(UserMemory(memory="User likes jazz", memory_id="jazz"))  # the default user's
    with pytest.raises(MemoryNotFoundError, match="1 of 2 memories were not found under user 'default'"):
        db.delete_user_memories(["jazz", "tea"], user_id=None)
    assert db.get_user_memories() == []  # what was there is deleted; the error is about the rest
    assert [m.memory_id for m in db.get_user_memories(user_id="alice")] == ["tea"]
    db.delete_user_memory("tea", user_id="alice")  # naming the owner deletes it
    db.delete_user_memory("tea", user_id="alice")  # and an explicit owner keeps deletes idempotent
    assert db.get_user_memories(user_id="alice") == []


def test_a_delete_without_user_id_deletes_under_the_default_user_when_it_is_there(server):
    from agno_memorysync import MemorySyncDb

    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, default_user_id="alice")
    db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="tea"))
    db.delete_user_memory("tea")
    assert db.get_user_memories() == []
