"""SQLite storage: WAL, versioned migrations (``PRAGMA user_version``), one transaction per write.

One connection guarded by a re-entrant lock: a request's reads and writes run as one unit, so
concurrent requests never interleave inside a write. Rows are always addressed by
(tenant, user); no method here reads or deletes across users.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


# Each step is SQL, or the name of a function of this module that takes the connection.
MIGRATIONS: tuple[str, ...] = (
    # 1: facts (+ FTS5 index), transcripts, state, replay receipts, client_ref receipts.
    """
    CREATE TABLE facts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        text TEXT NOT NULL,
        source TEXT NOT NULL,
        metadata TEXT NOT NULL,
        created_at TEXT NOT NULL,
        origin_kind TEXT,
        origin_id INTEGER,
        vector BLOB NOT NULL
    );
    CREATE INDEX facts_scope ON facts (tenant, user_id, id);
    CREATE INDEX facts_origin ON facts (tenant, user_id, origin_kind, origin_id);
    CREATE INDEX facts_text ON facts (tenant, user_id, text);
    CREATE VIRTUAL TABLE facts_fts USING fts5 (scope, text, tokenize = 'porter unicode61');
    CREATE TABLE row_ids (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL);
    CREATE TABLE history (
        id INTEGER PRIMARY KEY,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        source TEXT NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        seq INTEGER,
        occurred_at TEXT,
        payload TEXT,
        idem_key TEXT,
        created_at TEXT NOT NULL
    );
    CREATE INDEX history_session ON history (tenant, user_id, session_id, idem_key);
    CREATE TABLE state (
        id INTEGER PRIMARY KEY,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        source TEXT NOT NULL,
        namespace TEXT NOT NULL,
        ns_path TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        text TEXT NOT NULL,
        indexed INTEGER NOT NULL,
        vector BLOB,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (tenant, user_id, source, ns_path, key)
    );
    CREATE TABLE receipts (
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        digest TEXT NOT NULL,
        seen_at TEXT NOT NULL,
        PRIMARY KEY (tenant, user_id, digest)
    );
    CREATE TABLE client_refs (
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        ref TEXT NOT NULL,
        memory_ids TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (tenant, user_id, ref)
    );
    """,
    # 2: see _exact_word_index.
    "_exact_word_index",
    # 3: see _escaped_namespace_paths.
    "_escaped_namespace_paths",
)


def _exact_word_index(conn: sqlite3.Connection) -> None:
    """Index exact words (no porter stems), so the query side can look its terms up in the FTS5
    vocabulary, whose per-term document counts let search skip terms too common to matter."""
    conn.execute("DROP TABLE facts_fts")
    conn.execute(
        "CREATE VIRTUAL TABLE facts_fts USING fts5 (scope, text, tokenize = 'unicode61 remove_diacritics 0')"
    )
    conn.execute("CREATE VIRTUAL TABLE facts_vocab USING fts5vocab (facts_fts, 'row')")
    rows = conn.execute("SELECT id, tenant, user_id, text FROM facts").fetchall()
    conn.executemany(
        "INSERT INTO facts_fts (rowid, scope, text) VALUES (?, ?, ?)",
        ((row[0], scope_token(row[1], row[2]), row[3]) for row in rows),
    )


NS_SEP = "\x1f"


def _escaped_namespace_paths(conn: sqlite3.Connection) -> None:
    """Recompute every ``ns_path`` with escaped segments (version 2 joined them unescaped)."""
    rows = conn.execute("SELECT id, namespace FROM state").fetchall()
    conn.executemany(
        "UPDATE state SET ns_path = ? WHERE id = ?", ((ns_path(json.loads(row[1])), row[0]) for row in rows)
    )


def ns_path(namespace: Iterable[str]) -> str:
    """A namespace as a string whose prefixes are exactly the segment-wise prefixes.

    Segments are escaped so that one holding the separator (``["a\x1fb"]``) can never be
    mistaken for two (``["a", "b"]``).
    """
    return "".join(segment.replace("%", "%25").replace(NS_SEP, "%1F") + NS_SEP for segment in namespace)


def scope_token(tenant: str, user_id: str) -> str:
    # FTS5 filters by an indexed token, so a user's search never touches other users' postings.
    return "s" + hashlib.blake2b(f"{tenant}\0{user_id}".encode(), digest_size=12).hexdigest()


def _to_blob(vector: np.ndarray | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, dtype=np.float32).tobytes()


@dataclass(frozen=True)
class FactsChange:
    """What changed in one user's facts: rows added (ids ascending, with their vectors) and/or
    removed. Neither given means "unknown": drop whatever is cached for this user."""

    tenant: str
    user_id: str
    added_ids: list[int] | None = None
    added_vectors: np.ndarray | None = None
    removed_ids: list[int] | None = None

    @property
    def unknown(self) -> bool:
        return self.added_ids is None and self.removed_ids is None


FactsListener = Callable[[FactsChange], None]


class Store:
    def __init__(self, path: str | Path, *, clock: Clock = utc_now) -> None:
        self.path = str(path)
        self.clock = clock
        self._lock = threading.RLock()
        self._depth = 0
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._conn.row_factory = sqlite3.Row
        self._listeners: list[FactsListener] = []
        self._pending: list[FactsChange] = []
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._migrate()

    # ---- plumbing ---------------------------------------------------------------------
    def _migrate(self) -> None:
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise RuntimeError(
                f"{self.path} has schema version {version}, newer than this memorysync-server "
                f"({len(MIGRATIONS)}). Upgrade memorysync-server or use another --db file."
            )
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                if script.isidentifier():
                    globals()[script](self._conn)
                else:
                    for statement in script.split(";"):
                        if statement.strip():
                            self._conn.execute(statement)
                self._conn.execute(f"PRAGMA user_version = {number}")
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def on_facts_changed(self, listener: FactsListener) -> None:
        """``listener(change)`` after each committed change to a user's facts (see FactsChange)."""
        self._listeners.append(listener)

    def _facts_changed(self, change: FactsChange) -> None:
        # Inside a transaction the change is announced only once it is committed; a rollback
        # announces "unknown" instead, so no cache ever holds rows that were never stored.
        with self._lock:
            if self._depth:
                self._pending.append(change)
                return
            for listener in self._listeners:
                listener(change)

    def _settle(self, committed: bool) -> None:
        pending, self._pending = self._pending, []
        if not committed:
            pending = [FactsChange(t, u) for t, u in dict.fromkeys((c.tenant, c.user_id) for c in pending)]
        for change in pending:
            for listener in self._listeners:
                listener(change)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic unit; nested calls join the outer transaction."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield
            except BaseException:
                self._depth = 0
                self._conn.execute("ROLLBACK")
                self._settle(committed=False)
                raise
            self._depth = 0
            self._conn.execute("COMMIT")
            self._settle(committed=True)

    def _q(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, tuple(params)).fetchall()

    def _x(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Cursor:
        with self._lock:
            return self._conn.execute(sql, tuple(params))

    def now(self) -> str:
        return iso(self.clock())

    # ---- facts ------------------------------------------------------------------------
    def insert_fact(
        self,
        tenant: str,
        user_id: str,
        *,
        text: str,
        source: str,
        metadata: dict[str, Any],
        vector: np.ndarray,
        origin: tuple[str, int] | None = None,
    ) -> int:
        with self.transaction():
            cur = self._x(
                "INSERT INTO facts (tenant, user_id, text, source, metadata, created_at, origin_kind,"
                " origin_id, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tenant,
                    user_id,
                    text,
                    source,
                    json.dumps(metadata, ensure_ascii=False),
                    self.now(),
                    origin[0] if origin else None,
                    origin[1] if origin else None,
                    _to_blob(vector),
                ),
            )
            fact_id = int(cur.lastrowid or 0)
            self._x(
                "INSERT INTO facts_fts (rowid, scope, text) VALUES (?, ?, ?)",
                (fact_id, scope_token(tenant, user_id), text),
            )
            self._facts_changed(
                FactsChange(
                    tenant, user_id, added_ids=[fact_id], added_vectors=np.asarray([vector], np.float32)
                )
            )
        return fact_id

    def bulk_insert_facts(
        self, tenant: str, user_id: str, rows: list[tuple[str, str, dict[str, Any], np.ndarray]]
    ) -> None:
        """Seed many facts (text, source, metadata, vector) in one transaction (benchmarks, imports)."""
        scope = scope_token(tenant, user_id)
        now = self.now()
        ids = []
        with self.transaction():
            for text, source, metadata, vector in rows:
                cur = self._conn.execute(
                    "INSERT INTO facts (tenant, user_id, text, source, metadata, created_at, vector)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (tenant, user_id, text, source, json.dumps(metadata), now, _to_blob(vector)),
                )
                self._conn.execute(
                    "INSERT INTO facts_fts (rowid, scope, text) VALUES (?, ?, ?)",
                    (cur.lastrowid, scope, text),
                )
                ids.append(int(cur.lastrowid or 0))
            vectors = np.asarray([row[3] for row in rows], dtype=np.float32)
            self._facts_changed(FactsChange(tenant, user_id, added_ids=ids, added_vectors=vectors))

    def find_fact_by_text(self, tenant: str, user_id: str, text: str) -> dict[str, Any] | None:
        rows = self._q(
            "SELECT * FROM facts WHERE tenant = ? AND user_id = ? AND text = ? ORDER BY id LIMIT 1",
            (tenant, user_id, text),
        )
        return _fact(rows[0]) if rows else None

    def get_facts(self, tenant: str, user_id: str, ids: Iterable[int]) -> list[dict[str, Any]]:
        ids = list(ids)
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = self._q(
            f"SELECT * FROM facts WHERE tenant = ? AND user_id = ? AND id IN ({marks})",
            (tenant, user_id, *ids),
        )
        by_id = {row["id"]: _fact(row) for row in rows}
        return [by_id[i] for i in ids if i in by_id]

    def list_facts(
        self, tenant: str, user_id: str, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        total = self._q("SELECT COUNT(*) FROM facts WHERE tenant = ? AND user_id = ?", (tenant, user_id))[0][
            0
        ]
        rows = self._q(
            "SELECT * FROM facts WHERE tenant = ? AND user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
            (tenant, user_id, limit if limit > 0 else -1, offset),
        )
        return [_fact(row) for row in rows], int(total)

    def fact_vectors(self, tenant: str, user_id: str) -> tuple[np.ndarray, np.ndarray]:
        """(ids, matrix) of one user's facts, for the in-memory search cache."""
        rows = self._q(
            "SELECT id, vector FROM facts WHERE tenant = ? AND user_id = ? ORDER BY id", (tenant, user_id)
        )
        ids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        if not rows:
            return ids, np.zeros((0, 0), dtype=np.float32)
        matrix = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.float32).reshape(len(rows), -1)
        return ids, matrix

    def term_document_counts(self, terms: list[str]) -> dict[str, int]:
        """How many facts (all users) contain each indexed term, from the FTS5 vocabulary."""
        if not terms:
            return {}
        marks = ",".join("?" * len(terms))
        rows = self._q(f"SELECT term, doc FROM facts_vocab WHERE term IN ({marks})", terms)
        return {row[0]: int(row[1]) for row in rows}

    def lexical_matches(
        self, tenant: str, user_id: str, terms: list[str], limit: int
    ) -> list[tuple[int, float]]:
        """(fact id, bm25) for facts matching any term, best first; bm25 is positive, higher is better."""
        if not terms:
            return []
        quoted = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        match = f'scope : "{scope_token(tenant, user_id)}" AND text : ({quoted})'
        try:
            rows = self._q(
                "SELECT rowid, -bm25(facts_fts, 0.0, 1.0) FROM facts_fts WHERE facts_fts MATCH ?"
                " ORDER BY bm25(facts_fts, 0.0, 1.0) LIMIT ?",
                (match, limit),
            )
        except sqlite3.OperationalError:
            return []
        return [(int(r[0]), float(r[1])) for r in rows]

    def delete_facts(
        self, tenant: str, user_id: str, ids: Iterable[int], *, dry_run: bool = False
    ) -> list[int]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        with self.transaction():
            marks = ",".join("?" * len(ids))
            found = [
                row[0]
                for row in self._q(
                    f"SELECT id FROM facts WHERE tenant = ? AND user_id = ? AND id IN ({marks}) ORDER BY id",
                    (tenant, user_id, *ids),
                )
            ]
            if found and not dry_run:
                marks = ",".join("?" * len(found))
                self._x(f"DELETE FROM facts WHERE id IN ({marks})", found)
                self._x(f"DELETE FROM facts_fts WHERE rowid IN ({marks})", found)
                self._facts_changed(FactsChange(tenant, user_id, removed_ids=found))
        return found

    def derived_fact_ids(self, tenant: str, user_id: str, kind: str, origin_ids: Iterable[int]) -> list[int]:
        origin_ids = list(origin_ids)
        if not origin_ids:
            return []
        marks = ",".join("?" * len(origin_ids))
        return [
            row[0]
            for row in self._q(
                f"SELECT id FROM facts WHERE tenant = ? AND user_id = ? AND origin_kind = ?"
                f" AND origin_id IN ({marks}) ORDER BY id",
                (tenant, user_id, kind, *origin_ids),
            )
        ]

    def count_facts(self, tenant: str) -> int:
        return int(self._q("SELECT COUNT(*) FROM facts WHERE tenant = ?", (tenant,))[0][0])

    # ---- receipts ---------------------------------------------------------------------
    def seen_recently(self, tenant: str, user_id: str, digest: str, since: str) -> bool:
        rows = self._q(
            "SELECT seen_at FROM receipts WHERE tenant = ? AND user_id = ? AND digest = ?",
            (tenant, user_id, digest),
        )
        return bool(rows) and rows[0][0] >= since

    def record_receipt(self, tenant: str, user_id: str, digest: str) -> None:
        self._x(
            "INSERT INTO receipts (tenant, user_id, digest, seen_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (tenant, user_id, digest) DO UPDATE SET seen_at = excluded.seen_at",
            (tenant, user_id, digest, self.now()),
        )

    def client_ref(self, tenant: str, user_id: str, ref: str) -> list[int] | None:
        rows = self._q(
            "SELECT memory_ids FROM client_refs WHERE tenant = ? AND user_id = ? AND ref = ?",
            (tenant, user_id, ref),
        )
        return json.loads(rows[0][0]) if rows else None

    def record_client_ref(self, tenant: str, user_id: str, ref: str, ids: list[int]) -> None:
        self._x(
            "INSERT OR REPLACE INTO client_refs (tenant, user_id, ref, memory_ids, created_at) VALUES (?, ?, ?, ?, ?)",
            (tenant, user_id, ref, json.dumps(ids), self.now()),
        )

    # ---- row ids (history turns and state items share one h_<n> sequence) ---------------
    def _new_row_id(self, kind: str) -> int:
        return int(self._x("INSERT INTO row_ids (kind) VALUES (?)", (kind,)).lastrowid or 0)

    # ---- history ----------------------------------------------------------------------
    def find_turn(
        self,
        tenant: str,
        user_id: str,
        session_id: str,
        *,
        idem_key: str | None,
        seq: int | None,
        role: str,
        content: str,
    ) -> dict[str, Any] | None:
        if idem_key is not None:
            rows = self._q(
                "SELECT * FROM history WHERE tenant = ? AND user_id = ? AND session_id = ? AND idem_key = ? LIMIT 1",
                (tenant, user_id, session_id, idem_key),
            )
            if rows:
                return _turn(rows[0])
        if seq is not None:
            rows = self._q(
                "SELECT * FROM history WHERE tenant = ? AND user_id = ? AND session_id = ? AND seq = ?"
                " AND role = ? AND content = ? LIMIT 1",
                (tenant, user_id, session_id, seq, role, content),
            )
            if rows:
                return _turn(rows[0])
        return None

    def insert_turn(
        self,
        tenant: str,
        user_id: str,
        *,
        session_id: str,
        source: str,
        role: str,
        content: str,
        seq: int | None,
        occurred_at: str | None,
        payload: Any,
        has_payload: bool,
        idem_key: str | None,
    ) -> dict[str, Any]:
        with self.transaction():
            row_id = self._new_row_id("history")
            self._x(
                "INSERT INTO history (id, tenant, user_id, session_id, source, role, content, seq, occurred_at,"
                " payload, idem_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row_id,
                    tenant,
                    user_id,
                    session_id,
                    source,
                    role,
                    content,
                    seq,
                    occurred_at,
                    json.dumps(payload) if has_payload else None,
                    idem_key,
                    self.now(),
                ),
            )
            row = self._q("SELECT * FROM history WHERE id = ?", (row_id,))[0]
        return _turn(row)

    def list_turns(
        self, tenant: str, user_id: str, session_id: str, source: str | None, limit: int
    ) -> tuple[list[dict[str, Any]], int]:
        where = "tenant = ? AND user_id = ? AND session_id = ?"
        params: list[Any] = [tenant, user_id, session_id]
        if source is not None:
            where += " AND source = ?"
            params.append(source)
        total = self._q(f"SELECT COUNT(*) FROM history WHERE {where}", params)[0][0]
        rows = self._q(
            f"SELECT * FROM history WHERE {where} ORDER BY seq IS NULL, seq, id LIMIT ?",
            (*params, limit if limit > 0 else -1),
        )
        return [_turn(row) for row in rows], int(total)

    def turn_ids(
        self, tenant: str, user_id: str, *, session_id: str | None, ids: list[int] | None, source: str | None
    ) -> list[int]:
        where = "tenant = ? AND user_id = ?"
        params: list[Any] = [tenant, user_id]
        if session_id is not None:
            where += " AND session_id = ?"
            params.append(session_id)
        if ids is not None:
            if not ids:
                return []
            where += f" AND id IN ({','.join('?' * len(ids))})"
            params.extend(ids)
        if source is not None:
            where += " AND source = ?"
            params.append(source)
        return [row[0] for row in self._q(f"SELECT id FROM history WHERE {where} ORDER BY id", params)]

    def delete_turns(self, ids: list[int]) -> None:
        if ids:
            self._x(f"DELETE FROM history WHERE id IN ({','.join('?' * len(ids))})", ids)

    # ---- state ------------------------------------------------------------------------
    def get_state(
        self, tenant: str, user_id: str, source: str, namespace: list[str], key: str
    ) -> dict[str, Any] | None:
        rows = self._q(
            "SELECT * FROM state WHERE tenant = ? AND user_id = ? AND source = ? AND ns_path = ? AND key = ?",
            (tenant, user_id, source, ns_path(namespace), key),
        )
        return _state(rows[0]) if rows else None

    def upsert_state(
        self,
        tenant: str,
        user_id: str,
        *,
        source: str,
        namespace: list[str],
        key: str,
        value: dict[str, Any],
        text: str,
        indexed: bool,
        vector: np.ndarray | None,
    ) -> tuple[dict[str, Any], bool]:
        """Insert or replace one record; returns (item, created)."""
        with self.transaction():
            existing = self.get_state(tenant, user_id, source, namespace, key)
            now = self.now()
            value_json = json.dumps(value, ensure_ascii=False, sort_keys=True)
            if existing is None:
                row_id = self._new_row_id("state")
                self._x(
                    "INSERT INTO state (id, tenant, user_id, source, namespace, ns_path, key, value, text, indexed,"
                    " vector, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        row_id,
                        tenant,
                        user_id,
                        source,
                        json.dumps(namespace, ensure_ascii=False),
                        ns_path(namespace),
                        key,
                        value_json,
                        text,
                        int(indexed),
                        _to_blob(vector),
                        now,
                        now,
                    ),
                )
            else:
                row_id = int(existing["id"][2:])
                self._x(
                    "UPDATE state SET value = ?, text = ?, indexed = ?, vector = ?, updated_at = ? WHERE id = ?",
                    (value_json, text, int(indexed), _to_blob(vector), now, row_id),
                )
            row = self._q("SELECT * FROM state WHERE id = ?", (row_id,))[0]
        return _state(row), existing is None

    def state_rows(
        self,
        tenant: str,
        user_id: str,
        *,
        source: str,
        prefix: list[str] | None,
        with_vectors: bool = False,
    ) -> list[dict[str, Any]]:
        """Every record under ``prefix`` (segment-wise), newest first."""
        where = "tenant = ? AND user_id = ? AND source = ?"
        params: list[Any] = [tenant, user_id, source]
        if prefix:
            p = ns_path(prefix)
            where += " AND substr(ns_path, 1, ?) = ?"
            params.extend([len(p), p])
        rows = self._q(f"SELECT * FROM state WHERE {where} ORDER BY updated_at DESC, id DESC", params)
        return [_state(row, with_vector=with_vectors) for row in rows]

    def state_ids(
        self, tenant: str, user_id: str, source: str, namespace: list[str], keys: list[str] | None
    ) -> list[int]:
        where = "tenant = ? AND user_id = ? AND source = ? AND ns_path = ?"
        params: list[Any] = [tenant, user_id, source, ns_path(namespace)]
        if keys is not None:
            if not keys:
                return []
            where += f" AND key IN ({','.join('?' * len(keys))})"
            params.extend(keys)
        return [row[0] for row in self._q(f"SELECT id FROM state WHERE {where} ORDER BY id", params)]

    def delete_state_rows(self, ids: list[int]) -> None:
        if ids:
            self._x(f"DELETE FROM state WHERE id IN ({','.join('?' * len(ids))})", ids)


def _fact(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": int(row["id"]),
        "memory_id": f"m_{row['id']}",
        "text": row["text"],
        "source": row["source"],
        "metadata": json.loads(row["metadata"]),
        "created_at": row["created_at"],
    }


def _turn(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": f"h_{row['id']}",
        "session_id": row["session_id"],
        "role": row["role"],
        "content": row["content"],
        "seq": row["seq"],
        "occurred_at": row["occurred_at"],
        "payload": None if row["payload"] is None else json.loads(row["payload"]),
        "source": row["source"],
        "created_at": row["created_at"],
    }


def _state(row: sqlite3.Row, *, with_vector: bool = False) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": f"h_{row['id']}",
        "namespace": json.loads(row["namespace"]),
        "key": row["key"],
        "value": json.loads(row["value"]),
        "text": row["text"],
        "source": row["source"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }
    if with_vector:
        item["_indexed"] = bool(row["indexed"])
        item["_vector"] = None if row["vector"] is None else np.frombuffer(row["vector"], dtype=np.float32)
    return item
