"""Deletes are designed against data loss: scoped to one user, loud when they fail, no everything-wipe."""

from __future__ import annotations

import pytest
from agno.db.schemas.memory import UserMemory
from agno.memory import MemoryManager

from agno_memorysync import MemorySyncClearAllError, MemorySyncDb, MemorySyncError


@pytest.fixture
def two_users(db):
    for user in ("alice", "bob"):
        db.upsert_memories(
            [
                UserMemory(memory="User likes green tea", memory_id="tea", user_id=user),
                UserMemory(memory="User lives in Oslo", memory_id="oslo", user_id=user),
                UserMemory(memory="User has a dog named Rex", memory_id="dog", user_id=user),
            ]
        )
    return db


def keys(db, user):
    return {m.memory_id for m in db.get_user_memories(user_id=user)}


def test_delete_takes_the_derived_facts_and_only_that_users_row(two_users, raw):
    assert len(raw.facts("alice")) == 3
    two_users.delete_user_memory("tea", user_id="alice")
    assert keys(two_users, "alice") == {"oslo", "dog"}
    assert {f["text"] for f in raw.facts("alice")} == {"User lives in Oslo", "User has a dog named Rex"}
    assert keys(two_users, "bob") == {"tea", "oslo", "dog"}  # same id, other user: untouched
    assert len(raw.facts("bob")) == 3


def test_deleting_an_id_already_gone_is_a_no_op(two_users):
    two_users.delete_user_memory("tea", user_id="alice")
    two_users.delete_user_memory("tea", user_id="alice")
    two_users.delete_user_memories(["tea", "never-existed"], user_id="alice")
    two_users.delete_user_memories([], user_id="alice")
    assert keys(two_users, "alice") == {"oslo", "dog"}


def test_bulk_delete_and_memory_manager_clear_user_memories(two_users):
    two_users.delete_user_memories(["tea", "dog"], user_id="alice")
    assert keys(two_users, "alice") == {"oslo"}
    MemoryManager(db=two_users).clear_user_memories(user_id="bob")  # agno's per-user clear
    assert keys(two_users, "bob") == set()
    assert keys(two_users, "alice") == {"oslo"}


def test_forget_user_memories_is_the_explicit_per_user_wipe(two_users, raw, server):
    other_source = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, source="other-app")
    other_source.upsert_user_memory(UserMemory(memory="User likes chess", memory_id="chess", user_id="alice"))
    assert two_users.forget_user_memories("alice") == 3
    assert keys(two_users, "alice") == set() and raw.facts("alice") == [
        f for f in raw.facts("alice") if f["source"] != "agno"
    ]
    assert keys(other_source, "alice") == {"chess"}  # another integration's records survive
    assert keys(two_users, "bob") == {"tea", "oslo", "dog"}
    assert two_users.forget_user_memories("alice") == 0


def test_clear_memories_refuses_and_deletes_nothing(two_users):
    with pytest.raises(MemorySyncClearAllError):
        two_users.clear_memories()
    assert keys(two_users, "alice") == {"tea", "oslo", "dog"} == keys(two_users, "bob")


def test_a_failed_delete_raises_and_says_so(two_users, server):
    server.faults.set(status=503, route="/v1/state/delete")
    with pytest.raises(MemorySyncError) as info:
        two_users.delete_user_memory("tea", user_id="alice")
    assert info.value.status_code == 503
    with pytest.raises(MemorySyncError):
        two_users.forget_user_memories("alice")
    server.faults.clear()
    assert keys(two_users, "alice") == {"tea", "oslo", "dog"}


def test_a_delete_that_gets_no_answer_raises_even_with_fail_open_writes(server, dead_url):
    db = MemorySyncDb(api_key=server.api_key, base_url=dead_url, fail_open_writes=True, write_timeout=1)
    with pytest.raises(MemorySyncError, match="could not reach"):
        db.delete_user_memory("tea", user_id="alice")
    server.faults.set(delay=3, route="/v1/state/delete")
    slow = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, write_timeout=0.5)
    with pytest.raises(MemorySyncError, match="retry it"):
        slow.delete_user_memories(["tea"], user_id="alice")
