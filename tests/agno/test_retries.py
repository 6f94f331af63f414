"""A write that fails for a passing reason is retried in the background until agno's "Memory added
successfully" is true; a newer write or a delete always wins over a queued retry."""

from __future__ import annotations

import logging

from agno.db.schemas.memory import UserMemory
from agno.db.sqlite import SqliteDb

from agno_memorysync import MemorySyncDb

from .conftest import memory_agent
from .scripted import ScriptedModel

PUT = "/v1/state/put"


def make_db(server, **kwargs):
    return MemorySyncDb(
        api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id, **kwargs
    )


def test_a_write_agno_reported_as_added_is_stored_once_the_server_recovers(server, tmp_path, raw):
    db = make_db(server)
    model = ScriptedModel()
    agent = memory_agent(model, SqliteDb(db_file=str(tmp_path / "agent.db")), db, user_id="alice")
    server.faults.set(status=503, route=PUT)
    result = agent.run("Hi! I like tea.")
    assert result.status.value == "COMPLETED"
    assert model.transcript.tool_results == ["Memory added successfully"]  # agno's words to the model
    assert db.stats()["pending"] == 1 and raw.states("alice") == []  # not true yet
    server.faults.clear()
    assert db.flush(10)
    assert db.stats() == {"queued": 1, "delivered": 1, "lost": 0, "dropped": 0, "pending": 0}
    (stored,) = raw.states("alice")  # now it is, exactly once
    assert stored["value"]["memory"] == "User likes tea" and stored["value"]["input"] == "Hi! I like tea."
    assert [f["text"] for f in raw.facts("alice")] == ["User likes tea"]
    db.close()


def test_a_newer_write_of_the_same_memory_wins_over_the_queued_one(server, raw):
    db = make_db(server)
    server.faults.set(status=503, route=PUT)
    db.upsert_user_memory(UserMemory(memory="User lives in Oslo", memory_id="home", user_id="u"))
    db.upsert_user_memory(UserMemory(memory="User lives in Bergen", memory_id="home", user_id="u"))
    assert db.stats()["pending"] == 1  # one queued write per memory: the newest
    server.faults.clear()
    db.upsert_user_memory(UserMemory(memory="User lives in Trondheim", memory_id="home", user_id="u"))
    assert db.stats()["pending"] == 0  # the direct write took the older one out of the queue
    assert db.flush(5)
    assert raw.state("u", "home")["value"]["memory"] == "User lives in Trondheim"
    db.close()


def test_a_delete_is_never_undone_by_a_queued_write(server, raw):
    db = make_db(server)
    db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="tea", user_id="u"))
    server.faults.set(status=503, route=PUT)
    db.upsert_user_memory(UserMemory(memory="User likes green tea", memory_id="tea", user_id="u"))
    assert db.stats()["pending"] == 1
    server.faults.clear()
    db.delete_user_memory("tea", user_id="u")
    assert db.flush(5)
    assert raw.state("u", "tea") is None and db.get_user_memories(user_id="u") == []
    db.forget_user_memories("u")  # the per-user wipe settles that user's queued writes too
    db.close()


def test_a_forget_takes_every_queued_write_of_that_user_only(server, raw):
    db = make_db(server)
    server.faults.set(status=503, route=PUT)
    for user in ("alice", "bob"):
        db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="tea", user_id=user))
    server.faults.clear()
    db.forget_user_memories("alice")
    assert db.flush(5)
    assert (
        raw.state("alice", "tea") is None and raw.state("bob", "tea")["value"]["memory"] == "User likes tea"
    )
    db.close()


def test_the_queue_is_bounded_and_a_loss_is_counted_and_logged(server, caplog):
    db = make_db(server, max_pending_writes=1)
    server.faults.set(status=503, route=PUT)
    with caplog.at_level(logging.ERROR, logger="agno_memorysync"):
        queued = db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="a", user_id="u"))
        dropped = db.upsert_user_memory(UserMemory(memory="User likes jazz", memory_id="b", user_id="u"))
    assert queued is not None and dropped is None  # nothing is promised that will not happen
    assert db.stats()["dropped"] == 1 and "retry queue is full" in caplog.text
    server.faults.clear()
    assert db.flush(5)
    assert [m.memory_id for m in db.get_user_memories(user_id="u")] == ["a"]
    db.close()


def test_a_write_is_given_up_after_retry_for_and_logged(server, caplog):
    db = make_db(server, retry_for=0.3)
    server.faults.set(status=503, route=PUT)
    with caplog.at_level(logging.ERROR, logger="agno_memorysync"):
        db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="a", user_id="u"))
        assert db.flush(10)
    assert db.stats()["lost"] == 1 and db.stats()["pending"] == 0
    assert "LOST after" in caplog.text and "'a'" in caplog.text
    server.faults.clear()
    assert db.get_user_memories(user_id="u") == []
    db.close()


def test_batches_are_queued_too_and_converge_on_one_record_each(server, raw):
    db = make_db(server)
    server.faults.set(status=503, route=PUT)
    memories = [UserMemory(memory=f"User fact {i}", memory_id=f"f{i}", user_id="u") for i in range(5)]
    returned = db.upsert_memories(memories)
    assert [m.memory_id for m in returned] == [f"f{i}" for i in range(5)]
    server.faults.clear()
    assert db.flush(10)
    assert sorted(item["key"] for item in raw.states("u")) == [f"f{i}" for i in range(5)]
    assert db.stats()["delivered"] == 5
    db.close()


def test_a_batch_larger_than_the_queue_promises_only_what_was_queued(server):
    db = make_db(server, max_pending_writes=2)
    server.faults.set(status=503, route=PUT)
    memories = [UserMemory(memory=f"User fact {i}", memory_id=f"f{i}", user_id="u") for i in range(3)]
    promised = db.upsert_memories(memories)
    assert [m.memory_id for m in promised] == ["f0", "f1"] and db.stats()["dropped"] == 1
    server.faults.clear()
    assert db.flush(10)
    assert sorted(m.memory_id for m in db.get_user_memories(user_id="u")) == ["f0", "f1"]
    db.close()
