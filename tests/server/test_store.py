"""Storage: WAL, versioned migrations (an old file is upgraded in place), no silent downgrade."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from memorysync_server.search import FactSearch, HashingEmbedder
from memorysync_server.store import MIGRATIONS, Store


def test_new_file_is_wal_at_the_latest_version(tmp_path) -> None:
    store = Store(tmp_path / "s.db")
    assert store._q("PRAGMA journal_mode")[0][0] == "wal"
    assert store._q("PRAGMA user_version")[0][0] == len(MIGRATIONS)
    store.close()


def test_a_version_1_file_is_upgraded_and_keeps_its_rows(tmp_path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    for statement in MIGRATIONS[0].split(";"):
        if statement.strip():
            conn.execute(statement)
    vector = HashingEmbedder().embed(["User plays the cello"])[0]
    conn.execute(
        "INSERT INTO facts (tenant, user_id, text, source, metadata, created_at, vector)"
        " VALUES ('t', 'u', 'User plays the cello', 'chat', '{}', '2026-01-01T00:00:00Z', ?)",
        (np.asarray(vector, dtype=np.float32).tobytes(),),
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()

    store = Store(path)
    assert store._q("PRAGMA user_version")[0][0] == len(MIGRATIONS)
    facts, total = store.list_facts("t", "u", 0, 0)
    assert total == 1 and facts[0]["text"] == "User plays the cello"
    # The rebuilt full-text index has the old row, scoped to its user.
    assert [fact_id for fact_id, _ in store.lexical_matches("t", "u", ["cello"], 5)] == [facts[0]["id"]]
    assert store.lexical_matches("t", "someone-else", ["cello"], 5) == []
    assert (
        FactSearch(store, HashingEmbedder()).search("t", "u", "cello", 3)[0]["text"] == "User plays the cello"
    )
    store.close()


def test_a_file_from_a_newer_server_is_refused_not_touched(tmp_path) -> None:
    path = tmp_path / "new.db"
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(RuntimeError, match="newer than this memorysync-server"):
        Store(path)


def test_a_failed_transaction_leaves_nothing_behind(tmp_path) -> None:
    store = Store(tmp_path / "tx.db")
    vector = HashingEmbedder().embed(["User is vegan"])[0]
    with pytest.raises(RuntimeError), store.transaction():
        store.insert_fact("t", "u", text="User is vegan", source="chat", metadata={}, vector=vector)
        raise RuntimeError("boom")
    assert store.list_facts("t", "u", 0, 0) == ([], 0)
    store.close()


def test_the_search_cache_follows_commits_and_ignores_rollbacks(tmp_path) -> None:
    store = Store(tmp_path / "cache.db")
    embedder = HashingEmbedder()
    search = FactSearch(store, embedder)

    def add(text: str) -> int:
        return store.insert_fact(
            "t", "u", text=text, source="chat", metadata={}, vector=embedder.embed([text])[0]
        )

    def found(prompt: str) -> list[str]:
        return [fact["text"] for fact in search.search("t", "u", prompt, 5)]

    vegan = add("User is vegan")
    assert found("vegan") == ["User is vegan"]  # the user's matrix is now cached
    add("User plays the cello")
    assert found("cello") == ["User plays the cello"]  # appended to the cache, not reloaded
    with pytest.raises(RuntimeError), store.transaction():
        add("User keeps bees")
        raise RuntimeError("boom")
    assert found("bees") == []  # rolled back: never visible, even briefly
    store.delete_facts("t", "u", [vegan])
    assert found("vegan") == []
    assert found("cello") == ["User plays the cello"]
    store.bulk_insert_facts(
        "t", "u", [("User keeps bees", "chat", {}, embedder.embed(["User keeps bees"])[0])]
    )
    assert found("bees") == ["User keeps bees"]
    # The cache always equals a fresh read of the store.
    fresh = FactSearch(store, embedder)
    for prompt in ("vegan", "cello", "bees"):
        assert found(prompt) == [f["text"] for f in fresh.search("t", "u", prompt, 5)]
    store.close()
