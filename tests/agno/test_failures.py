"""Failures: reads fail open within their budget, writes are retried in the background by default
(or raise), deletes raise."""

from __future__ import annotations

import logging
import time

import pytest
from agno.db.schemas.memory import UserMemory

from agno_memorysync import MemorySyncDb, MemorySyncError
from memorysync_server.http.quota import Quota

MARGIN = 1.0  # seconds of slack on top of a budget, for a loaded CI machine


def every_read(db):
    return [
        db.get_user_memories(user_id="u"),
        db.get_user_memories(user_id="u", search_content="green tea", deserialize=False),
        db.get_user_memory("m", user_id="u"),
        db.get_all_memory_topics(user_id="u"),
        db.get_user_memory_stats(user_id="u"),
    ]


EMPTY = [[], ([], 0), None, [], ([], 0)]


def test_dead_server_reads_are_empty_writes_are_queued_and_a_loss_is_logged(dead_url, caplog):
    db = MemorySyncDb(api_key="ms_test_x", base_url=dead_url, write_timeout=1)
    with caplog.at_level(logging.WARNING, logger="agno_memorysync"):
        assert every_read(db) == EMPTY
        one = db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="tea", user_id="u"))
        batch = db.upsert_memories([UserMemory(memory="User likes jazz", memory_id="jazz", user_id="u")])
        assert sum("failed open" in r.message for r in caplog.records) == 5
        assert sum("queued and retried" in r.getMessage() for r in caplog.records) == 2
        # what will be stored once the server answers, not None
        assert one.memory == "User likes tea" and [m.memory_id for m in batch] == ["jazz"]
        assert db.stats() == {"queued": 2, "delivered": 0, "lost": 0, "dropped": 0, "pending": 2}
        db.close()  # the server never came back: what is left is counted and logged
    assert db.stats()["lost"] == 2 and db.stats()["pending"] == 0
    assert "2 queued memory write(s) LOST at close" in caplog.text


def test_fail_open_writes_false_raises(dead_url):
    db = MemorySyncDb(api_key="ms_test_x", base_url=dead_url, fail_open_writes=False)
    with pytest.raises(MemorySyncError, match="could not reach the server"):
        db.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u"))
    assert db.get_user_memories(user_id="u") == []  # reads still fail open


def test_a_slow_server_costs_a_read_no_more_than_recall_timeout(server):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id)
    db.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u"))
    server.faults.set(delay=5)
    fast = MemorySyncDb(
        api_key=server.api_key, base_url=server.base_url, recall_timeout=0.5, write_timeout=0.5
    )
    started = time.monotonic()
    assert fast.get_user_memories(user_id="u") == []  # tenant discovery + list: one total budget
    assert (
        fast.upsert_user_memory(UserMemory(memory="User likes jazz", user_id="u")).memory == "User likes jazz"
    )
    assert time.monotonic() - started < 1.0 + MARGIN
    server.faults.clear()
    assert fast.flush(10)  # the queued write lands once the server is fast again
    assert [m.memory for m in fast.get_user_memories(user_id="u")] == ["User likes tea", "User likes jazz"]


def test_the_default_read_budget_is_1_2_seconds(server):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id)
    server.faults.set(delay=5)
    started = time.monotonic()
    assert db.get_user_memories(user_id="u") == []
    assert 1.2 <= time.monotonic() - started < 1.2 + MARGIN


def test_server_errors(server, caplog):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id)
    db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="tea", user_id="u"))
    server.faults.set(status=503)
    with caplog.at_level(logging.WARNING, logger="agno_memorysync"):
        assert every_read(db) == EMPTY
        queued = db.upsert_user_memory(UserMemory(memory="User likes jazz", memory_id="jazz", user_id="u"))
    assert "HTTP 503" in caplog.text and queued.memory_id == "jazz" and db.stats()["pending"] == 1
    strict = MemorySyncDb(
        api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id, fail_open_writes=False
    )
    with pytest.raises(MemorySyncError) as info:
        strict.upsert_user_memory(UserMemory(memory="User likes jazz", user_id="u"))
    assert info.value.status_code == 503 and info.value.transient
    server.faults.clear()
    assert db.flush(10) and db.stats()["delivered"] == 1
    assert [m.memory_id for m in db.get_user_memories(user_id="u")] == ["tea", "jazz"]


def test_a_wrong_key_is_logged_as_an_error_not_a_blip(server, caplog):
    db = MemorySyncDb(api_key="ms_test_wrong", base_url=server.base_url, tenant_id=server.tenant_id)
    with caplog.at_level(logging.WARNING, logger="agno_memorysync"):
        assert db.get_user_memories(user_id="u") == []
    assert [r.levelno for r in caplog.records] == [logging.ERROR] and "401" in caplog.text


def test_over_quota_silent_mode_writes_skipped_reads_empty(server, caplog):
    key = server.add_key("ms_test_quota", quota=Quota(adds=1))
    db = MemorySyncDb(api_key=key, base_url=server.base_url, tenant_id=server.tenant_id)
    assert db.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u")) is not None
    with caplog.at_level(logging.ERROR, logger="agno_memorysync"):
        assert db.upsert_user_memory(UserMemory(memory="User likes jazz", user_id="u")) is None
    assert "quota" in caplog.text and db.stats()["queued"] == 0  # retrying cannot help: not queued
    strict = MemorySyncDb(
        api_key=key, base_url=server.base_url, tenant_id=server.tenant_id, fail_open_writes=False
    )
    with pytest.raises(MemorySyncError, match="quota"):
        strict.upsert_user_memory(UserMemory(memory="User likes jazz", user_id="u"))
    assert [m.memory for m in db.get_user_memories(user_id="u")] == ["User likes tea"]
    reader = MemorySyncDb(
        api_key=server.add_key("ms_test_noreads", quota=Quota(reads=0)),
        base_url=server.base_url,
        tenant_id=server.tenant_id,
    )
    assert reader.get_user_memories(user_id="u") == []


def test_over_quota_strict_mode_429(server):
    key = server.add_key("ms_test_strict", quota=Quota(adds=0, reads=0, strict=True))
    db = MemorySyncDb(api_key=key, base_url=server.base_url, tenant_id=server.tenant_id)
    assert db.get_user_memories(user_id="u") == []
    assert db.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u")) is None
    assert db.stats()["queued"] == 0  # a plan limit is not a blip: not retried
    strict = MemorySyncDb(
        api_key=key, base_url=server.base_url, tenant_id=server.tenant_id, fail_open_writes=False
    )
    with pytest.raises(MemorySyncError) as info:
        strict.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u"))
    assert info.value.limit_exceeded
