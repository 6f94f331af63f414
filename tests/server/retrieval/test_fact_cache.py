"""The decoded facts searches keep (retrieval.fact_cache): read once, dropped by every change the
storage announces about them, never kept from a read that raced a change, bounded in size."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memorysync_server.domain import Fact, FactsChange, NewFact
from memorysync_server.retrieval.fact_cache import FactCache
from memorysync_server.storage.sqlite.engine import SqliteStorage

T, U = "t_acme", "alice"


class CountingRead:
    """The storage's read, counting the ids it was asked for (what the cache did not hold)."""

    def __init__(self, store: SqliteStorage) -> None:
        self.store, self.asked = store, []

    def __call__(self, tenant: str, user_id: str, ids: list[int]) -> list[Fact]:
        self.asked.extend(ids)
        return self.store.facts.get(tenant, user_id, ids)


@pytest.fixture
def store(tmp_path: Path) -> SqliteStorage:
    return SqliteStorage(tmp_path / "cache.db")


def _add(store: SqliteStorage, *texts: str, user: str = U) -> list[int]:
    return store.facts.add(T, user, [NewFact(t, "test", {}, np.ones(4, dtype=np.float32)) for t in texts])


def _cache(store: SqliteStorage, **kw: int) -> tuple[FactCache, CountingRead]:
    read = CountingRead(store)
    cache = FactCache(read, **kw)
    store.on_facts_changed(cache.changed)
    return cache, read


def test_facts_are_read_once_and_answered_as_storage_answers_them(store: SqliteStorage) -> None:
    a, b, c = _add(store, "User plays the cello", "User lives in Oslo", "User is vegan")
    cache, read = _cache(store)
    assert cache.get(T, U, [b, 999, a]) == store.facts.get(T, U, [b, 999, a])
    assert cache.get(T, U, [c, a, b]) == store.facts.get(T, U, [c, a, b])
    assert read.asked == [b, 999, a, c]  # an id that does not exist is asked again, never invented
    assert cache.get("t_other", U, [a]) == []  # another tenant's cache is its own


def test_every_announced_change_drops_the_facts_it_touched(store: SqliteStorage) -> None:
    a, b, c, d = _add(store, "User plays the cello", "User lives in Oslo", "User is vegan", "User runs")
    cache, read = _cache(store)
    cache.get(T, U, [a, b, c, d])
    store.facts.update(T, U, a, {"tags": ["music"]}, actor=None)
    store.facts.set_superseded(T, U, {b: c})
    store.facts.delete(T, U, [d])
    read.asked.clear()
    got = cache.get(T, U, [a, b, c, d])
    assert sorted(read.asked) == [a, b, d]  # c was not changed: still decoded from before
    assert [f.id for f in got] == [a, b, c]
    assert got[0].tags == ["music"] and got[1].metadata["superseded_by"] == f"m_{c}"
    # A change of unknown extent (a rollback, another process's write) drops the whole user.
    cache.changed(FactsChange(T, U))
    read.asked.clear()
    cache.get(T, U, [a, c])
    assert read.asked == [a, c]


def test_a_read_that_raced_a_change_is_answered_but_not_kept(store: SqliteStorage) -> None:
    (a,) = _add(store, "User plays the cello")
    reads: list[list[int]] = []

    def read_then_edit(tenant: str, user_id: str, ids: list[int]) -> list[Fact]:
        facts = store.facts.get(tenant, user_id, ids)
        if not reads:  # the edit commits after the read, before the cache keeps what it read
            store.facts.update(T, U, a, {"tags": ["music"]}, actor=None)
        reads.append(ids)
        return facts

    cache = FactCache(read_then_edit)
    store.on_facts_changed(cache.changed)
    assert cache.get(T, U, [a])[0].tags == []  # what storage held when it was read
    assert cache.get(T, U, [a])[0].tags == ["music"]  # read again: the first read was not kept
    assert len(reads) == 2


def test_the_least_recently_searched_users_are_dropped_past_the_bound(store: SqliteStorage) -> None:
    alice = _add(store, "User plays the cello", "User lives in Oslo", user="alice")
    bob = _add(store, "User is vegan", "User runs", user="bob")
    carol = _add(store, "User sings", user="carol")
    cache, read = _cache(store, max_facts=3)
    cache.get(T, "alice", alice)
    cache.get(T, "bob", bob)  # 4 facts: alice (searched longest ago) goes
    cache.get(T, "carol", carol)
    read.asked.clear()
    cache.get(T, "bob", bob)
    cache.get(T, "carol", carol)
    assert read.asked == []
    cache.get(T, "alice", alice)
    assert read.asked == alice
