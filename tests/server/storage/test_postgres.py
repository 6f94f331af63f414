"""What only the PostgreSQL engine has to get right: migrations recorded in the database (and run
once when processes start together), text PostgreSQL can't hold, constraints instead of a lock."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
import pytest

from memorysync_server.domain import NewFact, NewState, NewTurn
from memorysync_server.model import HashingEmbedder
from memorysync_server.storage import open_storage
from memorysync_server.storage.postgres.schema import MIGRATIONS

from ..conftest import fresh_name

EMBEDDER = HashingEmbedder()


@pytest.fixture
def empty_db(postgres_cluster: Any) -> Iterator[str]:
    """A database with no schema at all (not a copy of the migrated template)."""
    name = fresh_name()
    url = postgres_cluster.create_database(name, template="template0")
    yield url
    postgres_cluster.drop_database(name)


def test_processes_starting_together_migrate_once(empty_db: str) -> None:
    with ThreadPoolExecutor(4) as pool:
        stores = list(pool.map(lambda _: open_storage(empty_db), range(4)))
    for store in stores:
        assert store.schema_version() == len(MIGRATIONS)
        store.close()
    with psycopg.connect(empty_db) as conn:
        rows = conn.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall()
    assert [r[0] for r in rows] == [m.version for m in MIGRATIONS]


def test_a_database_from_a_newer_server_is_refused(db: Any) -> None:
    if not str(db).startswith("postgresql://"):
        pytest.skip("PostgreSQL only (SQLite: test_store.py)")
    open_storage(db).close()
    with psycopg.connect(db) as conn:
        conn.execute(
            "INSERT INTO schema_migrations (version, summary) VALUES (%s, 'future')", (len(MIGRATIONS) + 1,)
        )
    with pytest.raises(RuntimeError, match="newer than this memorysync-server"):
        open_storage(db)


def test_text_postgresql_cannot_hold_round_trips(db: Any) -> None:
    # NUL is valid in JSON strings (and SQLite) but not in PostgreSQL text; U+E000 is the escape.
    store = open_storage(db)
    odd = "a\x00b \ue000 \ue0000 \x00\ue000 end"
    [fact_id] = store.facts.add(odd, odd, [NewFact(odd, odd, {odd: odd}, EMBEDDER.embed([odd])[0])])
    [fact] = store.facts.get(odd, odd, [fact_id])
    assert (fact.text, fact.source, fact.metadata) == (odd, odd, {odd: odd})
    turn, created = store.turns.add(
        odd,
        odd,
        NewTurn(session_id=odd, source=odd, role="user", content=odd, seq=1, occurred_at=None, idem_key=odd),
    )
    assert created and (turn.session_id, turn.content) == (odd, odd)
    assert store.turns.add(odd, odd, NewTurn(odd, odd, "user", odd, 1, None, odd))[1] is False
    row, _ = store.state.put(odd, odd, NewState(odd, [odd, odd], odd, {odd: [odd]}, odd, True, None))
    assert (row.namespace, row.key, row.value) == ([odd, odd], odd, {odd: [odd]})
    assert [r.key for r in store.state.rows(odd, odd, source=odd, prefix=[odd])] == [odd]
    store.close()


def test_concurrent_writers_store_a_fact_and_a_turn_once(db: Any) -> None:
    stores = [open_storage(db) for _ in range(2)]  # two engines: two pools, as two processes have
    vector = EMBEDDER.embed(["User is vegan"])[0]
    turn = NewTurn("s", "api", "user", "I am vegan", 1, None, "k1")

    def write(i: int) -> tuple[list[int], bool]:
        store = stores[i % 2]
        with store.transaction():
            ids = store.facts.add("t", "u", [NewFact("User is vegan", "chat", {}, vector)])
            _, created = store.turns.add("t", "u", turn)
        return ids, created

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(write, range(16)))
    assert sum(len(ids) for ids, _ in results) == 1
    assert sum(created for _, created in results) == 1
    assert stores[0].facts.page("t", "u", 0, 0)[1] == 1
    assert stores[1].turns.page("t", "u", "s", None, 0)[1] == 1
    assert stores[0].lexical.document_frequencies("t", ["vegan"]) == {"vegan": 1}
    for store in stores:
        store.close()


def test_a_unit_of_work_aborted_by_a_deadlock_runs_again(db: Any) -> None:
    if not str(db).startswith("postgresql://"):
        pytest.skip("PostgreSQL only: SQLite's single writer never deadlocks")
    store = open_storage(db)
    texts = ["User owns bicycle number 1", "User owns bicycle number 2"]
    ids = store.facts.add("t", "u", [NewFact(t, "api", {}, EMBEDDER.embed([t])[0]) for t in texts])
    both_hold_one = threading.Barrier(2)
    runs: Counter[str] = Counter()

    def edit(name: str, first: int, second: int) -> str:
        # Against the rule (ascending ids) on purpose: each holds one row and wants the other's.
        def unit() -> str:
            runs[name] += 1
            store.facts.lock("t", "u", [first])
            if runs[name] == 1:
                both_hold_one.wait(timeout=30)
            store.facts.update("t", "u", second, {"tags": [name]}, actor=None)
            return name

        return store.atomic(unit)

    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(edit, ["a", "b"], ids, ids[::-1]))
    assert done == ["a", "b"]
    assert sum(runs.values()) == 3  # PostgreSQL aborted one of the two; it ran once more
    assert sorted(tag for fact in store.facts.get("t", "u", ids) for tag in fact.tags) == ["a", "b"]
    store.close()
