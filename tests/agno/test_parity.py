"""The same memory calls against agno's own SqliteDb and MemorySyncDb must give the same answers.

These are the expectations agno's own db test suites hold every backend to (insert, update,
deserialize, per-user get/delete, bulk upserts, filters, sorting, paging, substring search,
topics, stats), run side by side instead of restated. Where MemorySyncDb differs on purpose it
is asserted at the end, with the reason.
"""

from __future__ import annotations

from typing import Any

import pytest
from agno.db.schemas.memory import UserMemory
from agno.db.sqlite import SqliteDb

from agno_memorysync import MemoryNotFoundError, MemorySyncDb

FULL = dict(
    memory="User prefers coffee over tea and likes working in the morning",
    topics=["preferences", "work_habits"],
    input="I prefer coffee and work best in the morning",
    feedback="positive",
    agent_id="agent-1",
    team_id="team-1",
)
COMPARED = ("memory_id", "memory", "topics", "user_id", "input", "feedback", "agent_id", "team_id")


def fields(memory: Any) -> tuple[Any, ...] | None:
    if memory is None:
        return None
    if isinstance(memory, dict):
        return tuple(memory.get(name) for name in COMPARED)
    return tuple(getattr(memory, name) for name in COMPARED)


def scenario(db: Any) -> dict[str, Any]:
    """Every call agno's backends are tested with; returns what each call answered."""
    seen: dict[str, Any] = {}
    seen["insert"] = fields(db.upsert_user_memory(UserMemory(memory_id="m1", user_id="alice", **FULL)))
    seen["insert_row"] = fields(
        db.upsert_user_memory(
            UserMemory(memory_id="m2", user_id="alice", memory="User has a cat"), deserialize=False
        )
    )
    seen["update"] = fields(
        db.upsert_user_memory(
            UserMemory(
                memory_id="m1", user_id="alice", **{**FULL, "memory": "User prefers tea now", "topics": ["x"]}
            )
        )
    )
    seen["get"] = fields(db.get_user_memory("m1", user_id="alice"))
    seen["get_row"] = fields(db.get_user_memory("m1", user_id="alice", deserialize=False))
    seen["get_other_user"] = fields(db.get_user_memory("m1", user_id="bob"))
    db.delete_user_memory("m2", user_id="bob")  # wrong owner: nothing happens
    seen["after_wrong_delete"] = fields(db.get_user_memory("m2", user_id="alice"))
    db.delete_user_memory("m2", user_id="alice")
    seen["after_delete"] = fields(db.get_user_memory("m2", user_id="alice"))

    bulk = [
        UserMemory(
            memory_id=f"b{i}",
            memory=f"Bulk memory {i} about {'hiking' if i % 2 else 'cooking'}",
            topics=[f"topic_{i}", "bulk"],
            user_id="carol",
            agent_id=f"agent_{i % 2}",
            updated_at=1_700_000_000 + (i * 7) % 5,  # some ties
        )
        for i in range(6)
    ]
    seen["bulk"] = [fields(m) for m in db.upsert_memories(bulk, preserve_updated_at=True)]
    renamed = [UserMemory(**{**b.__dict__, "topics": ["updated"], "agent_id": "new"}) for b in bulk[:2]]
    seen["bulk_update"] = [fields(m) for m in db.upsert_memories(renamed, preserve_updated_at=True)]

    def ids(**kwargs: Any) -> list[str]:
        return [m.memory_id for m in db.get_user_memories(user_id="carol", **kwargs)]

    seen["all"] = ids()
    seen["asc"] = ids(sort_by="updated_at", sort_order="asc")
    seen["desc"] = ids(sort_by="updated_at", sort_order="desc")
    seen["by_memory"] = ids(sort_by="memory", sort_order="asc")
    seen["page_2"] = ids(sort_by="updated_at", sort_order="desc", limit=2, page=2)
    seen["agent_filter"] = ids(agent_id="agent_1")
    seen["topic_filter"] = ids(topics=["bulk"])
    seen["substring"] = ids(search_content="HIKING", sort_by="memory", sort_order="desc")
    seen["short_substring"] = ids(search_content="y 3")
    rows, total = db.get_user_memories(user_id="carol", limit=4, page=1, deserialize=False)
    seen["rows"] = ([r["memory_id"] for r in rows], total)
    seen["topics"] = sorted(db.get_all_memory_topics(user_id="carol"))
    stats, count = db.get_user_memory_stats(user_id="carol")
    seen["stats"] = ([(s["user_id"], s["total_memories"]) for s in stats], count)
    db.delete_user_memories(["b0", "b1", "missing"], user_id="carol")
    seen["after_bulk_delete"] = ids()
    return seen


@pytest.fixture
def sqlite(tmp_path):
    return SqliteDb(db_file=str(tmp_path / "agno.db"))


@pytest.fixture
def memorysync(server):
    # A relevance floor of 1.0 keeps search_content to literal matches, which is what agno's
    # backends answer; the ranked extras are tested in test_order.py.
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, min_search_score=1.0)
    yield db
    db.close()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # SqliteDb's ilike on a JSON column
def test_memorysync_answers_every_call_as_agnos_sqlite_db_does(sqlite, memorysync):
    expected, got = scenario(sqlite), scenario(memorysync)
    assert got == expected
    assert expected["get_other_user"] is None and expected["after_delete"] is None  # the scenario bites
    assert len(expected["asc"]) == 6 and expected["substring"] and expected["short_substring"] == ["b3"]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_where_memorysync_differs_on_purpose(sqlite, memorysync):
    for db in (sqlite, memorysync):
        db.upsert_user_memory(
            UserMemory(memory="User likes tea", memory_id="t", user_id="alice", topics=["a"])
        )
    # agno's backends look an id up across all users; MemorySync scopes every record to one user,
    # so a call without user_id means default_user_id (or the user of the agno run calling it).
    assert sqlite.get_user_memory("t") is not None and memorysync.get_user_memory("t") is None
    # ... the same for topics and stats: never a cross-user listing
    assert sqlite.get_all_memory_topics() == ["a"] and memorysync.get_all_memory_topics() == []
    assert sqlite.get_user_memory_stats()[1] == 1 and memorysync.get_user_memory_stats() == ([], 0)
    # search_content: the same rows, but ranked by relevance rather than in storage order
    for db in (sqlite, memorysync):
        db.upsert_user_memory(
            UserMemory(memory="User drinks green tea daily", memory_id="g", user_id="alice")
        )
    assert {m.memory_id for m in memorysync.get_user_memories(user_id="alice", search_content="tea")} == {
        m.memory_id for m in sqlite.get_user_memories(user_id="alice", search_content="tea")
    }
    # a delete without user_id that finds nothing says so instead of returning as if it had worked
    with pytest.raises(MemoryNotFoundError):
        memorysync.delete_user_memory("t")
    sqlite.delete_user_memory("t")
    assert (
        sqlite.get_user_memory("t") is None and memorysync.get_user_memory("t", user_id="alice") is not None
    )
