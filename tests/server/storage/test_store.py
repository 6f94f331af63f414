"""Storage: WAL, versioned migrations (old files upgrade in place), no silent downgrade, every
query scoped to (tenant, user), full-text statistics per tenant. Tests taking ``db`` run on both
engines (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import httpx
import numpy as np
import pytest

from memorysync_server.domain import NewFact, NewState, NewTurn
from memorysync_server.extraction import day
from memorysync_server.launcher import LocalServer
from memorysync_server.model import HashingEmbedder
from memorysync_server.retrieval import FactSearch
from memorysync_server.storage import open_storage
from memorysync_server.storage.migrations import Migration, pending
from memorysync_server.storage.sqlite.engine import SqliteStorage
from memorysync_server.storage.sqlite.schema import MIGRATIONS
from tests.support.blocks import undated

DATA = Path(__file__).parents[1] / "data"
EMBEDDER = HashingEmbedder()


def fact(text: str, metadata_from: str | None = None, metadata: dict | None = None, **kw) -> NewFact:
    metadata = {**(metadata or {}), **({} if metadata_from is None else {"distilled_from": metadata_from})}
    return NewFact(text=text, source="chat", metadata=metadata, vector=EMBEDDER.embed([text])[0], **kw)


def test_new_file_is_wal_at_the_latest_version(tmp_path) -> None:
    store = SqliteStorage(tmp_path / "s.db")
    assert store.schema_version() == len(MIGRATIONS)
    store.close()
    conn = sqlite3.connect(tmp_path / "s.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_a_version_1_file_is_upgraded_and_keeps_its_rows(tmp_path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    MIGRATIONS[0].apply(conn)
    vector = EMBEDDER.embed(["User plays the cello"])[0]
    conn.execute(
        "INSERT INTO facts (tenant, user_id, text, source, metadata, created_at, vector)"
        " VALUES ('t', 'u', 'User plays the cello', 'chat', '{}', '2026-01-01T00:00:00.000000Z', ?)",
        (np.asarray(vector, dtype=np.float32).tobytes(),),
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()

    store = SqliteStorage(path)
    assert store.schema_version() == len(MIGRATIONS)
    facts, total = store.facts.page("t", "u", 0, 0)
    assert total == 1 and facts[0].text == "User plays the cello"
    # The rebuilt full-text index has the old row, scoped to its user.
    assert [fact_id for fact_id, _ in store.lexical.match("t", "u", ["cello"], 5)] == [facts[0].id]
    assert store.lexical.match("t", "someone-else", ["cello"], 5) == []
    assert FactSearch(store, EMBEDDER).search("t", "u", "cello", 3)[0][0].text == "User plays the cello"
    store.close()


def _reads(base_url: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, tenant in (("ms_test_a", "t_a"), ("ms_test_b", "t_b")):
        with httpx.Client(base_url=base_url, headers={"X-API-Key": key}) as c:
            for user in ("alice", "bob"):
                k = f"{tenant}/{user}"
                scope = {"tenant_id": tenant, "user_id": user}
                out[k + " list"] = c.get(f"/v1/memory/{tenant}/{user}/list").json()
                recalled = c.post(
                    "/v1/memory/recall", json={**scope, "prompt": "cello in Oslo, vegan food, dog"}
                ).json()
                # That release's blocks had no dates; each line now starts with the day it was said
                # (the rows' creation, for rows written before turns carried an occurred_at).
                days = {
                    day(datetime.fromisoformat(m["created_at"].replace("Z", "+00:00")))
                    for m in recalled["memories"]
                }
                assert all(
                    re.match(r"- \[(.+?)\] ", line)[1] in days for line in recalled["context"].splitlines()
                )
                out[k + " recall"] = {**recalled, "context": undated(recalled["context"])}
                out[k + " history"] = c.post("/v1/history/list", json={**scope, "session_id": "s1"}).json()
                out[k + " state"] = c.post("/v1/state/list", json=scope).json()
                out[k + " search"] = c.post("/v1/state/search", json={**scope, "query": "window seat"}).json()
    return out


def test_a_file_written_by_an_earlier_release_opens_and_answers_as_it_did(tmp_path) -> None:
    # v3-c80cb34.db was written over HTTP by the server at commit c80cb34 (schema version 3, one
    # shared full-text table); .reads.json holds what that server answered when reading it back.
    path = tmp_path / "old.db"
    shutil.copy(DATA / "v3-c80cb34.db", path)
    expected = json.loads((DATA / "v3-c80cb34.reads.json").read_text())
    # Scores and order are compared exactly, so this reads with the search that release had
    # (test_semantic_search.py opens a file of that release with the semantic default).
    with LocalServer(path, keys={"ms_test_a": "t_a", "ms_test_b": "t_b"}, search="lexical") as srv:
        assert _reads(srv.base_url) == expected
    store = SqliteStorage(path)
    assert store.schema_version() == len(MIGRATIONS)
    assert store.lexical.document_frequencies("t_a", ["cello", "vegan"]) == {"cello": 2, "vegan": 2}
    store.close()


def test_a_file_from_a_newer_server_is_refused_not_touched(tmp_path) -> None:
    path = tmp_path / "new.db"
    SqliteStorage(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(RuntimeError, match="newer than this memorysync-server"):
        SqliteStorage(path)


def test_migration_steps_are_numbered_in_order() -> None:
    steps = [Migration(1, "one", lambda conn: None), Migration(3, "three", lambda conn: None)]
    with pytest.raises(RuntimeError, match="expected 2"):
        pending(steps, 0, "db")
    assert [m.version for m in pending(MIGRATIONS, 2, "db")] == list(range(3, len(MIGRATIONS) + 1))


def test_a_failed_transaction_leaves_nothing_behind(db) -> None:
    store = open_storage(db)
    with pytest.raises(RuntimeError), store.transaction():
        store.facts.add("t", "u", [fact("User is vegan")])
        raise RuntimeError("boom")
    assert store.facts.page("t", "u", 0, 0) == ([], 0)
    # The tenant's full-text table created inside the rolled-back unit is not assumed to exist.
    store.facts.add("t", "u", [fact("User is vegan")])
    assert len(store.lexical.match("t", "u", ["vegan"], 5)) == 1
    store.close()


def test_the_search_cache_follows_commits_and_ignores_rollbacks(db) -> None:
    store = open_storage(db)
    search = FactSearch(store, EMBEDDER)

    def add(text: str) -> int:
        return store.facts.add("t", "u", [fact(text)])[0]

    def found(prompt: str) -> list[str]:
        return [f.text for f, _ in search.search("t", "u", prompt, 5)]

    vegan = add("User is vegan")
    assert found("vegan") == ["User is vegan"]  # the user's matrix is now cached
    add("User plays the cello")
    assert found("cello") == ["User plays the cello"]  # appended to the cache, not reloaded
    with pytest.raises(RuntimeError), store.transaction():
        add("User keeps bees")
        raise RuntimeError("boom")
    assert found("bees") == []  # rolled back: never visible, even briefly
    store.facts.delete("t", "u", [vegan])
    assert found("vegan") == []
    assert found("cello") == ["User plays the cello"]
    store.facts.add("t", "u", [fact("User keeps bees"), fact("User rows on Sundays")])
    assert found("bees") == ["User keeps bees"]
    # The cache always equals a fresh read of the store.
    fresh = FactSearch(store, EMBEDDER)
    for prompt in ("vegan", "cello", "bees", "rows"):
        assert found(prompt) == [f.text for f, _ in fresh.search("t", "u", prompt, 5)]
    store.close()


def test_turn_marks_tell_each_facts_turn_as_loaded_and_as_announced(db) -> None:
    # Search groups a kept turn with its facts, and raises what was said on the days a question
    # names, from these marks without decoding any fact: the marks read with the vectors and the
    # ones announced with each added row must say the same. The day is the turn's occurred_at as
    # written, else the day the fact was stored.
    today = datetime(2026, 3, 9, 23, 30, tzinfo=timezone.utc)
    store = open_storage(db, clock=lambda: today)
    announced: list[tuple[list[int], list[object]]] = []
    store.on_facts_changed(
        lambda change: announced.append((change.added_ids, change.added_marks)) if change.added_ids else None
    )
    said = "Long day. I play the cello, rehearsals are on Thursdays."
    then = {"occurred_at": "2024-02-29T23:50:00-05:00"}  # the 29th where it was said, not UTC's 1 March
    (turn,) = store.facts.add("t", "u", [fact(said, event_type="conversation", metadata=then)])
    (alone,) = store.facts.add("t", "u", [fact("User plays the cello", metadata_from=f"m_{turn}")])
    unembedded = NewFact(
        "User rehearses on Thursdays", "chat", {"distilled_from": f"m_{turn}"}, np.zeros(0, np.float32)
    )
    (late,) = store.facts.add("t", "u", [unembedded])
    leap, stored = date(2024, 2, 29).toordinal(), today.date().toordinal()
    assert announced == [
        ([turn], [("conversation", None, leap)]),
        ([alone], [("fact", f"m_{turn}", stored)]),
        ([late], [("fact", f"m_{turn}", stored)]),
    ]
    rows = store.facts.index_rows("t", "u", EMBEDDER.dim)
    assert rows.ids.tolist() == [turn, alone] and rows.matrix.shape == (2, EMBEDDER.dim)  # no vector yet
    assert rows.marks == [("conversation", None, leap), ("fact", f"m_{turn}", stored)]
    assert rows.other_vectors == [late]  # for the backfill to embed
    # A vector written late (after the answer) announces the row again, with its mark.
    store.facts.replace_vectors("t", "u", [(late, EMBEDDER.embed(["User rehearses on Thursdays"])[0])])
    assert announced[3] == ([late], [("fact", f"m_{turn}", stored)])
    rows = store.facts.index_rows("t", "u", EMBEDDER.dim)
    assert rows.ids.tolist() == [turn, alone, late] and rows.marks[2] == ("fact", f"m_{turn}", stored)
    assert rows.other_vectors == []
    assert store.facts.index_rows("t", "other", EMBEDDER.dim).ids.tolist() == []
    store.close()


def test_a_users_index_and_the_texts_a_prompt_stored_are_read_at_once(db) -> None:
    # A search reads what its index holds in one statement, and what its prompt stored in one more.
    store = open_storage(db)
    old, new, kept = store.facts.add(
        "t", "u", [fact("User lives in Oslo"), fact("User lives in Bergen"), fact("I moved.\nTo Bergen.")]
    )
    other = NewFact("User keeps bees", "chat", {}, np.ones(3, np.float32))  # another embedder's width
    (bees,) = store.facts.add("t", "u", [other])
    store.facts.set_superseded("t", "u", {old: new})
    with store.transaction():
        store.facts.update("t", "u", kept, {"importance": 0.25}, actor="api")
    rows = store.facts.index_rows("t", "u", EMBEDDER.dim)
    assert rows.ids.tolist() == [old, new, kept] and rows.other_vectors == [bees]
    assert rows.superseded == {old: new} and rows.importance == {kept: 0.25}
    assert store.facts.index_rows("t", "v", EMBEDDER.dim).superseded == {}
    found = store.facts.find_texts("t", "u", ["User lives in Bergen", "I moved.\nTo Bergen.", "User is 30"])
    assert {text: f.id for text, f in found.items()} == {
        "User lives in Bergen": new,
        "I moved.\nTo Bergen.": kept,
    }
    assert store.facts.find_texts("t", "other", ["User lives in Bergen"]) == {}
    assert store.facts.find_texts("t", "u", []) == {}
    store.close()


# ---- scoping: the store itself refuses to touch another user's rows ------------------------------
def test_deleting_turns_by_id_never_reaches_another_users_turns(db) -> None:
    store = open_storage(db)
    turn = NewTurn(
        session_id="s", source="api", role="user", content="hi", seq=1, occurred_at=None, idem_key=None
    )
    bobs, _ = store.turns.add("t", "bob", turn)
    other_tenant, _ = store.turns.add("t2", "alice", turn)
    assert store.turns.delete("t", "alice", [bobs.id, other_tenant.id]) == []
    assert store.turns.page("t", "bob", "s", None, 0)[1] == 1
    assert store.turns.page("t2", "alice", "s", None, 0)[1] == 1
    assert store.turns.delete("t", "bob", [bobs.id]) == [bobs.id]
    assert store.turns.page("t", "bob", "s", None, 0)[1] == 0
    store.close()


def test_deleting_state_rows_by_id_never_reaches_another_users_rows(db) -> None:
    store = open_storage(db)
    record = NewState(
        source="api", namespace=["n"], key="k", value={"v": 1}, text="v", indexed=False, vector=None
    )
    bobs, _ = store.state.put("t", "bob", record)
    assert store.state.delete("t", "alice", [bobs.id]) == []
    assert store.state.delete("t2", "bob", [bobs.id]) == []
    assert store.state.get("t", "bob", "api", ["n"], "k") is not None
    assert store.state.delete("t", "bob", [bobs.id]) == [bobs.id]
    assert store.state.get("t", "bob", "api", ["n"], "k") is None
    store.close()


def test_fact_reads_and_deletes_are_scoped_to_the_user(db) -> None:
    store = open_storage(db)
    [bobs] = store.facts.add("t", "bob", [fact("User plays the cello", origin=("state", 7))])
    assert store.facts.get("t", "alice", [bobs]) == []
    assert store.facts.derived("t", "alice", "state", [7]) == []
    assert store.facts.delete("t", "alice", [bobs]) == []
    assert store.facts.delete("t2", "bob", [bobs]) == []
    assert store.lexical.match("t", "alice", ["cello"], 5) == []
    assert [f.text for f in store.facts.get("t", "bob", [bobs])] == ["User plays the cello"]
    store.close()


def test_a_large_users_match_is_the_same_whichever_plan_the_engine_picks(db) -> None:
    # Past 2000 facts, SQLite matches rare words across the tenant and keeps the user's rows,
    # instead of walking every posting of the user: the answer must not change, nor leak.
    store = open_storage(db)
    vector = EMBEDDER.embed(["User noted an item"])[0]
    filler = [NewFact(f"User noted item {i}", "chat", {}, vector) for i in range(3000)]
    store.facts.add("t", "big", filler)
    mine = store.facts.add(
        "t", "big", [fact("User plays the theremin"), fact("User's theremin is old theremin")]
    )
    store.facts.add("t", "other", [fact("User sold a theremin"), fact("User noted item 7")])
    for terms in (["theremin"], ["theremin", "noted"]):
        hinted = store.lexical.match("t", "big", terms, 50, user_facts=3002)
        assert hinted == store.lexical.match("t", "big", terms, 50)
        assert {fact_id for fact_id, _ in hinted} >= set(mine) and len(hinted) == (
            2 if len(terms) == 1 else 50
        )
    assert store.lexical.match("t", "other", ["theremin"], 5, user_facts=3002)[0][0] not in mine
    store.close()


# ---- full-text statistics per tenant ---------------------------------------------------------------
def test_term_statistics_are_counted_per_tenant(db) -> None:
    store = open_storage(db)
    store.facts.add("a", "u", [fact(f"User owns cello number {i}") for i in range(5)])
    store.facts.add("b", "u", [fact("User plays the cello")])
    assert store.lexical.document_frequencies("a", ["cello"]) == {"cello": 5}
    assert store.lexical.document_frequencies("b", ["cello", "absent"]) == {"cello": 1}
    assert store.lexical.document_frequencies("nobody", ["cello"]) == {}
    store.close()


def test_one_tenants_data_does_not_change_another_tenants_ranking(db) -> None:
    keys = {"ms_test_a": "t_a", "ms_test_b": "t_b"}
    with LocalServer(db, keys=keys) as srv:
        a = httpx.Client(base_url=srv.base_url, headers={"X-API-Key": "ms_test_a", "X-End-User-ID": "u"})
        b = httpx.Client(base_url=srv.base_url, headers={"X-API-Key": "ms_test_b", "X-End-User-ID": "u"})
        for text in ("User plays the cello in a string quartet", "User's quartet rehearses on Mondays"):
            assert b.post("/memory/add", json={"text": text}).status_code == 200

        def b_scores() -> list[tuple[str, float]]:
            body = {"tenant_id": "t_b", "user_id": "u", "prompt": "cello quartet", "k": 5}
            return [(m["text"], m["score"]) for m in b.post("/v1/memory/query", json=body).json()["memories"]]

        before = b_scores()
        assert len(before) == 2
        # Tenant A fills its own memory with one of the query's words.
        for i in range(30):
            r = a.post("/memory/add", json={"text": f"User tuned cello number {i} today"})
            assert r.status_code == 200
        assert b_scores() == before
        a.close()
        b.close()


# ---- receipts and settings --------------------------------------------------------------------------
def test_replay_receipts_claim_once_per_window(db) -> None:
    store = open_storage(db)
    now = store.now()
    assert store.receipts.claim_turn("t", "u", "d", since=now - timedelta(days=30))
    assert not store.receipts.claim_turn("t", "u", "d", since=now - timedelta(days=30))
    assert store.receipts.claim_turn("t", "other", "d", since=now - timedelta(days=30))
    # Past the window the same digest is new again.
    assert store.receipts.claim_turn("t", "u", "d", since=store.now() + timedelta(seconds=1))
    store.close()


def test_a_client_ref_keeps_the_first_ids(db) -> None:
    store = open_storage(db)
    assert store.receipts.client_ref("t", "u", "ref") is None
    assert store.receipts.record_client_ref("t", "u", "ref", [3, 4]) == [3, 4]
    assert store.receipts.record_client_ref("t", "u", "ref", [9]) == [3, 4]
    assert store.receipts.client_ref("t", "u", "ref") == [3, 4]
    assert store.receipts.client_ref("t", "other", "ref") is None
    store.close()


def test_settings_persist_with_the_database(db) -> None:
    store = open_storage(db)
    assert store.settings.get("dev_api_key") is None
    store.settings.put("dev_api_key", "ms_test_1")
    store.settings.put("dev_api_key", "ms_test_2")
    store.close()
    store = open_storage(db)
    assert store.settings.get("dev_api_key") == "ms_test_2"
    store.close()


def _rows_in_file_alone(db: Path, copy_to: Path) -> int:
    """How many facts a copy of ``db`` without its write-ahead log holds."""
    shutil.copy(db, copy_to)
    copy = sqlite3.connect(copy_to)
    try:
        return int(copy.execute("SELECT COUNT(*) FROM facts").fetchone()[0])
    except sqlite3.DatabaseError:  # the table is still only in the log, or a copy torn mid-checkpoint
        return 0
    finally:
        copy.close()


def test_sqlite_copies_its_log_into_the_file_on_a_thread_of_its_own(tmp_path: Path) -> None:
    # The writer only counts its commits (sqlite_checkpoint.py): a thread copies the write-ahead
    # log into the file, so the file alone, without its -wal, holds every committed row; SQLite by
    # itself would not have copied these few pages yet.
    store = SqliteStorage(tmp_path / "logged.db")
    checkpointer = store._db.checkpointer
    rows = checkpointer.commits + 5
    for i in range(rows):  # one commit each: the first checkpoint runs after ``commits`` of them
        store.facts.add("t", "u", [NewFact(f"fact {i}", "x", {}, np.ones(4, dtype=np.float32))])
    # The promise is "eventually, by the thread": not how many checkpoints it takes (a thread that
    # wakes after the last commits copies all of them at once). Copy the file alone until it
    # holds every row; the bound is generous for a busy machine (the thread waits 0.5 s).
    deadline = time.monotonic() + 60
    while _rows_in_file_alone(tmp_path / "logged.db", tmp_path / "alone.db") < rows:
        assert time.monotonic() < deadline, (
            f"the file alone lacks rows after 60 s ({checkpointer.checkpoints} checkpoints)"
        )
        time.sleep(0.05)
    assert checkpointer.checkpoints >= 1  # copied by our thread, not by SQLite's own checkpoint
    store.close()
    thread = checkpointer._thread
    assert thread is not None and not thread.is_alive()
