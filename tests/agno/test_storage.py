"""Storage: one memory = one state record, and how upserts write it."""

from __future__ import annotations

import copy
import time

import pytest
from agno.db.schemas.memory import UserMemory

from agno_memorysync import MemorySyncDb

FULL = dict(
    memory="User is allergic to peanuts",
    memory_id="mem-1",
    topics=["health", "food"],
    user_id="alice",
    input="btw I'm allergic to peanuts",
    created_at=1_700_000_000,
    updated_at=1_700_000_100,
    feedback="confirmed",
    agent_id="chef-bot",
    team_id="kitchen",
)


def test_one_memory_is_one_state_record_with_every_field(db, raw):
    db.upsert_user_memory(UserMemory(**FULL))
    item = raw.state("alice", "mem-1")
    assert item["namespace"] == ["agno"] and item["source"] == "agno" and item["key"] == "mem-1"
    assert item["text"] == "User is allergic to peanuts"
    value = item["value"]
    # every UserMemory field, none dropped, plus when it was first written (the read order)
    assert set(value) == {*FULL, "inserted_ns"} and isinstance(value["inserted_ns"], int)
    assert {k: value[k] for k in FULL} == FULL  # the caller's timestamps included
    # extract=true: the fact is recallable from every MemorySync surface, with agent/team metadata.
    facts = raw.facts("alice")
    assert [f["text"] for f in facts] == ["User is allergic to peanuts"]
    assert facts[0]["metadata"]["agent_id"] == "chef-bot" and facts[0]["metadata"]["team_id"] == "kitchen"
    assert facts[0]["source"] == "agno"
    assert "allergic to peanuts" in raw.recall("alice", "can I eat peanuts?")  # what the AG2 adapter reads


def test_read_back_reconstructs_the_memory_exactly(db):
    written = UserMemory(**FULL)
    stored = db.upsert_user_memory(written)
    assert stored == written and stored is not written
    assert db.get_user_memory("mem-1", user_id="alice") == written
    assert db.get_user_memories(user_id="alice") == [written]


def test_timestamps_survive_a_non_utc_timezone(db, monkeypatch):
    # UserMemory.to_dict()/from_dict() shift timestamps by the UTC offset (agno/db/schemas/memory.py).
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        assert time.timezone != 0
        stored = db.upsert_user_memory(UserMemory(**FULL))
        again = db.get_user_memory("mem-1", user_id="alice")
        row = db.get_user_memory("mem-1", user_id="alice", deserialize=False)
    finally:
        monkeypatch.undo()
        time.tzset()
    assert again.created_at == 1_700_000_000 and again.updated_at == stored.updated_at
    assert row["created_at"] == 1_700_000_000  # epoch ints, not local-time ISO strings


def test_long_text_is_cut_to_the_contract_limit_but_the_value_keeps_it(db, raw):
    long = "User likes " + "tea " * 5000
    stored = db.upsert_user_memory(UserMemory(memory=long, memory_id="long", user_id="bob"))
    item = raw.state("bob", "long")
    assert len(item["text"]) == 16_000 and item["value"]["memory"] == long and stored.memory == long


def test_blank_text_is_stored_but_not_extracted(db, raw):
    db.upsert_user_memory(UserMemory(memory="   ", memory_id="blank", user_id="bob"))
    assert raw.state("bob", "blank")["value"]["memory"] == "   "
    assert raw.facts("bob") == []


def test_upsert_fills_ids_and_never_mutates_the_callers_object(db):
    mine = UserMemory(memory="User likes tea", topics=["drinks"])
    before = copy.deepcopy(mine)
    stored = db.upsert_user_memory(mine)
    assert mine == before  # untouched: no memory_id, no user_id, no updated_at added
    assert stored.memory_id and stored.user_id == "default" and stored.updated_at is not None
    assert stored.topics == ["drinks"] and stored is not mine
    # positional (agno's memory tools) and keyword (MemoryManager / AgentOS) both work
    by_keyword = db.upsert_user_memory(memory=UserMemory(memory="User likes jazz"), deserialize=False)
    assert isinstance(by_keyword, dict) and by_keyword["memory"] == "User likes jazz"
    assert {m.memory for m in db.get_user_memories()} == {"User likes tea", "User likes jazz"}


def test_update_keeps_the_first_created_at_and_moves_updated_at(server, raw):
    clock = iter([1_800_000_000, 1_800_000_500, 1_800_000_900]).__next__
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, clock=clock)
    first = db.upsert_user_memory(
        UserMemory(memory="User lives in Oslo", memory_id="loc", user_id="u", created_at=100)
    )
    # agno's update_memory tool sends a brand-new UserMemory: created_at reset to now
    second = db.upsert_user_memory(UserMemory(memory="User lives in Bergen", memory_id="loc", user_id="u"))
    assert first.updated_at == 1_800_000_000 and second.updated_at == 1_800_000_500
    assert second.created_at == 100 == raw.state("u", "loc")["value"]["created_at"]
    # the facts extracted from the old text are replaced, not accumulated
    assert [f["text"] for f in raw.facts("u")] == ["User lives in Bergen"]


def test_re_upserting_an_unchanged_memory_stores_and_extracts_nothing(server, raw):
    ticks = iter(range(1_800_000_000, 1_800_001_000, 100))
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, clock=lambda: next(ticks))
    memory = UserMemory(memory="User likes tea", memory_id="tea", user_id="u", topics=["drinks"])
    stored = db.upsert_user_memory(memory)
    before, facts_before = raw.state("u", "tea"), raw.facts("u")
    again = db.upsert_user_memory(
        UserMemory(memory="User likes tea", memory_id="tea", user_id="u", topics=["drinks"])
    )
    after = raw.state("u", "tea")
    assert again == stored and again.updated_at == stored.updated_at  # the clock moved; the memory did not
    assert after["updated_at"] == before["updated_at"] and after["value"] == before["value"]
    assert raw.facts("u") == facts_before  # same fact ids: nothing re-extracted


def test_upsert_memories_writes_each_and_can_preserve_updated_at(db, raw):
    memories = [
        UserMemory(memory="User likes tea", memory_id="a", user_id="u", updated_at=1_600_000_000),
        UserMemory(memory="User lives in Oslo", memory_id="b", user_id="u", updated_at=1_600_000_001),
    ]
    stored = db.upsert_memories(memories, preserve_updated_at=True)
    assert [m.updated_at for m in stored] == [1_600_000_000, 1_600_000_001]
    rows = db.upsert_memories(
        [UserMemory(memory="User likes jazz", memory_id="c", user_id="u")], deserialize=False
    )
    assert rows[0]["memory_id"] == "c" and isinstance(rows[0], dict)
    assert {item["key"] for item in raw.states("u")} == {"a", "b", "c"}


def test_source_is_configurable_and_scopes_the_records(server, raw):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, source="agno-support")
    db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="x", user_id="u"))
    assert raw.state("u", "x", source="agno-support")["value"]["memory"] == "User likes tea"
    assert raw.state("u", "x") is None
    assert MemorySyncDb(api_key=server.api_key, base_url=server.base_url).get_user_memories(user_id="u") == []


def test_explicit_tenant_id_skips_discovery(server):
    server.faults.set(status=500, route="/org/projects")
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id)
    assert db.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u")) is not None
    assert [m.memory for m in db.get_user_memories(user_id="u")] == ["User likes tea"]


def test_configuration_from_the_environment(server_env):
    db = MemorySyncDb()
    db.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u"))
    assert [m.memory for m in db.get_user_memories(user_id="u")] == ["User likes tea"]


@pytest.mark.parametrize("bad", [UserMemory(memory="x", memory_id=" "), UserMemory(memory="x", user_id="")])
def test_blank_ids_are_refused_before_writing(db, bad):
    with pytest.raises(ValueError, match="must be a non-empty string"):
        db.upsert_user_memory(bad)
