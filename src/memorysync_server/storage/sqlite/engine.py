"""The SQLite engine: one file, WAL, one writer at a time, readers that never wait for it.

Writes go through one connection guarded by a re-entrant lock; a unit of work holds it from
``BEGIN IMMEDIATE`` to ``COMMIT`` and does nothing else while holding it (callers prepare
vectors and encoded values first). Reads outside a unit of work use a connection of their own
thread and see the last committed state, so a recall never queues behind another tenant's write.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ...domain import (
    KEPT_TURN,
    Clock,
    Fact,
    FactsChange,
    FactsListener,
    Forgotten,
    IndexRows,
    NamespaceSummary,
    NewFact,
    NewState,
    NewTurn,
    SessionSummary,
    StateRow,
    StorageFull,
    Turn,
    TurnMark,
    UserDetail,
    UserSummary,
    said_day,
    searched_by,
    utc_now,
)
from .. import revisions
from ..base import (
    BaseFacts,
    BaseReceipts,
    BaseState,
    BaseStorage,
    BaseTurns,
    Dialect,
    Settings,
    record_revision,
)
from ..interfaces import LexicalForm, as_written
from ..migrations import pending
from ..retry import run_atomic
from ..rows import blob, dump, id_matrix, index_rows, ns_path
from .checkpoint import SAFETY_PAGES, Checkpointer
from .schema import MIGRATIONS, create_lexical_table, lexical_table, scope_token

T = TypeVar("T")
# Counts a person's memories without their kept turns (a memory kind listed only on request).
_FACTS_ONLY = f"SUM(event_type <> '{KEPT_TURN}')"


def _text_time(moment: datetime) -> str:
    # Fixed width (microseconds, Z), as every release wrote: the text sorts chronologically.
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


# A fact's TurnMark: its event type and metadata.distilled_from (parsed only where the key is
# written at all: most facts of a user who adds memories directly carry none).
_MARK_COLUMNS = (
    "event_type, CASE WHEN instr(metadata, '\"distilled_from\"') > 0"
    " THEN json_extract(metadata, '$.distilled_from') END,"
    " CASE WHEN instr(metadata, '\"occurred_at\"') > 0 THEN json_extract(metadata, '$.occurred_at') END,"
    " created_at"
)


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" * len(values))


class _Sqlite(Dialect):
    # Found by rowid, not through facts_scope: one B-tree walk per fact instead of two
    # (10 facts of 100k after an encode: 0.18-0.2 instead of 0.22-0.25 ms).
    facts_by_id = "facts NOT INDEXED"

    def tags_hold(self, tags: Sequence[str]) -> tuple[str, list[Any]]:
        held = "EXISTS (SELECT 1 FROM json_each(facts.tags) WHERE json_each.value = ?)"
        return " AND ".join([held] * len(tags)), list(tags)

    def under(self, prefix: str) -> tuple[str, list[Any]]:
        # Compared as bytes: SQLite's text functions stop at a NUL character, which a namespace
        # segment may hold.
        return "substr(CAST(ns_path AS BLOB), 1, ?) = CAST(? AS BLOB)", [len(prefix.encode("utf-8")), prefix]


_SQL = _Sqlite(_FACTS_ONLY)


# sqlite3.SQLITE_FULL from Python 3.11 on; the number is SQLite's own and never changes.
_SQLITE_FULL = 13


def _is_full(error: BaseException) -> bool:
    return isinstance(error, sqlite3.Error) and (
        getattr(error, "sqlite_errorcode", None) == _SQLITE_FULL or "database or disk is full" in str(error)
    )


class _Db:
    """Connections, the writer's lock and the unit of work, shared by the parts below."""

    def __init__(self, path: str, clock: Clock) -> None:
        self.path = path
        self.clock = clock
        self.lock = threading.RLock()
        self.depth = 0
        self.owner: int | None = None
        self.conn = self._connect()
        self.listeners: list[FactsListener] = []
        self.pending: list[FactsChange] = []
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self.lexical_tables: set[str] = set()
        with self.lock:
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            # The log is copied into the file off the writer's path (sqlite_checkpoint.py).
            self.conn.execute(f"PRAGMA wal_autocheckpoint={SAFETY_PAGES}")
            self._migrate()
        self.checkpointer = Checkpointer(self._connect)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        conn.row_factory = sqlite3.Row
        return conn

    def _migrate(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        for step in pending(MIGRATIONS, version, self.path):
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                step.apply(self.conn)
                self.conn.execute(f"PRAGMA user_version = {int(step.version)}")
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self.checkpointer.close()
        with self.lock:
            self.conn.close()
        with self._readers_lock:
            for reader in self._readers:
                reader.close()
            self._readers.clear()

    # ---- unit of work ---------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self.lock:
            if self.depth:
                self.depth += 1
                try:
                    yield
                finally:
                    self.depth -= 1
                return
            self.conn.execute("BEGIN IMMEDIATE")
            self.depth, self.owner = 1, threading.get_ident()
            try:
                yield
                self.conn.execute("COMMIT")  # may fail too: a full disk often shows only here
            except BaseException as error:
                self.depth, self.owner = 0, None
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                self._settle(committed=False)
                if _is_full(error):
                    raise StorageFull(f"{self.path}: {error}") from error
                raise
            self.depth, self.owner = 0, None
            self.checkpointer.committed()
            self._settle(committed=True)

    @property
    def inside(self) -> bool:
        """Whether this thread is inside its unit of work."""
        return bool(self.depth) and self.owner == threading.get_ident()

    def atomic(self, work: Callable[[], T]) -> T:
        return run_atomic(self.transaction, self.inside, work)

    def facts_changed(self, change: FactsChange) -> None:
        # Inside a transaction the change is announced only once it is committed; a rollback
        # announces "unknown" instead, so no cache ever holds rows that were never stored.
        with self.lock:
            if self.depth:
                self.pending.append(change)
                return
            for listener in self.listeners:
                listener(change)

    def _settle(self, committed: bool) -> None:
        pending_changes, self.pending = self.pending, []
        if not committed:
            users = dict.fromkeys((c.tenant, c.user_id) for c in pending_changes)
            pending_changes = [FactsChange(t, u) for t, u in users]
        for change in pending_changes:
            for listener in self.listeners:
                listener(change)

    # ---- statements -------------------------------------------------------------------------
    def write(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Cursor:
        with self.lock:
            try:
                return self.conn.execute(sql, tuple(params))
            except sqlite3.Error as error:
                if _is_full(error):
                    raise StorageFull(f"{self.path}: {error}") from error
                raise

    def _reader(self) -> sqlite3.Connection:
        reader = getattr(self._local, "conn", None)
        if reader is None:
            reader = self._connect()
            reader.execute("PRAGMA query_only=1")
            self._local.conn = reader
            with self._readers_lock:
                self._readers.append(reader)
        return reader

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A connection for a consistent read: the writer's own inside this thread's unit of
        work (it must see its uncommitted rows), otherwise this thread's reader in a snapshot."""
        if self.inside:
            with self.lock:
                yield self.conn
            return
        reader = self._reader()
        reader.execute("BEGIN")
        try:
            yield reader
        finally:
            reader.execute("COMMIT")

    def read(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        if self.inside:
            with self.lock:
                return self.conn.execute(sql, tuple(params)).fetchall()
        # One statement is one snapshot on its own (the reader is in autocommit mode): a
        # BEGIN and COMMIT around it would only add two statements to every read.
        return self._reader().execute(sql, tuple(params)).fetchall()

    def now_text(self) -> str:
        return _text_time(self.clock())

    # ---- what the shared parts (base.py) call ------------------------------------------------
    dialect = _SQL
    rows = read

    def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.write(sql, params)

    def snapshot_rows(self, *statements: tuple[str, Sequence[Any]]) -> list[list[sqlite3.Row]]:
        with self.reading() as conn:
            return [conn.execute(sql, tuple(params)).fetchall() for sql, params in statements]

    def stamp(self, moment: datetime | None = None) -> str:
        return _text_time(self.clock() if moment is None else moment)

    @staticmethod
    def time(stored: str) -> datetime:
        return _time(stored)

    def delete_rows(self, table: str, tenant: str, user_id: str, ids: Sequence[int]) -> list[int]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        scope = (tenant, user_id, *ids)
        with self.transaction():
            where = f"tenant = ? AND user_id = ? AND id IN ({_marks(ids)})"
            found = [row[0] for row in self.read(f"SELECT id FROM {table} WHERE {where} ORDER BY id", scope)]
            self.write(f"DELETE FROM {table} WHERE {where}", scope)
        return found

    def tenant_table(self, tenant: str, *, create: bool) -> str | None:
        """The tenant's full-text table; created (inside the current unit of work) when asked.
        Only names read back as committed are cached, so a rolled-back creation is never assumed."""
        name = lexical_table(tenant)
        if name in self.lexical_tables:
            return name
        if self.read("SELECT 1 FROM lexical_tables WHERE tenant = ?", (tenant,)):
            self.lexical_tables.add(name)
            return name
        if not create:
            return None
        with self.lock:
            return create_lexical_table(self.conn, tenant)


# ---- facts ------------------------------------------------------------------------------------
class SqliteFacts(BaseFacts):
    _db: _Db

    def add(self, tenant: str, user_id: str, facts: Sequence[NewFact]) -> list[int]:
        if not facts:
            return []
        with self._db.transaction():
            return self._add(tenant, user_id, facts)

    def _add(self, tenant: str, user_id: str, facts: Sequence[NewFact]) -> list[int]:
        held: set[str] = set()
        texts = list(dict.fromkeys(f.text for f in facts))
        for start in range(0, len(texts), 500):
            chunk = texts[start : start + 500]
            held.update(
                row[0]
                for row in self._db.read(
                    f"SELECT text FROM facts WHERE tenant = ? AND user_id = ? AND text IN ({_marks(chunk)})",
                    (tenant, user_id, *chunk),
                )
            )
        new = []
        for f in facts:
            if f.text not in held:
                held.add(f.text)
                new.append(f)
        if not new:
            return []
        facts = new
        scope = scope_token(tenant, user_id)
        rows = [
            (
                tenant,
                user_id,
                f.text,
                f.source,
                json.dumps(f.metadata, ensure_ascii=False),
                f.origin[0] if f.origin else None,
                f.origin[1] if f.origin else None,
                blob(f.vector),
                dump(f.tags),
                f.importance,
                f.event_type,
            )
            for f in facts
        ]
        ids = []
        table = self._db.tenant_table(tenant, create=True)
        now = self._db.now_text()
        for f, row in zip(facts, rows, strict=True):
            cur = self._db.write(
                "INSERT INTO facts (tenant, user_id, text, source, metadata, origin_kind, origin_id,"
                " vector, tags, importance, event_type, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*row, now, now),
            )
            fact_id = int(cur.lastrowid or 0)
            self._db.write(
                f"INSERT INTO {table} (rowid, scope, text) VALUES (?, ?, ?)",
                (fact_id, scope, self._lexical_form(searched_by(f.text, f.metadata))),
            )
            changed, diff = revisions.created(f)
            self._db.write(
                "INSERT INTO fact_revisions (tenant, user_id, fact_id, revision, event, changed_fields, diff,"
                " actor, created_at) VALUES (?, ?, ?, 0, 'created', ?, ?, ?, ?)",
                (tenant, user_id, fact_id, dump(changed), dump(diff), f.actor, now),
            )
            ids.append(fact_id)
        self._announce_added(tenant, user_id, ids, facts)
        return ids

    def lock(self, tenant: str, user_id: str, ids: Iterable[int]) -> list[Fact]:
        # The unit of work holds the one writer's lock: nothing else changes a row until it ends.
        assert self._db.inside, "call inside transaction()"
        return self.get(tenant, user_id, sorted(set(ids)))

    def vectors(self, tenant: str, user_id: str, *, dim: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        if dim is None:
            rows = self._db.read(
                "SELECT id, vector FROM facts WHERE tenant = ? AND user_id = ? ORDER BY id", (tenant, user_id)
            )
        else:
            rows = self._db.read(
                "SELECT id, vector FROM facts WHERE tenant = ? AND user_id = ? AND length(vector) = ? ORDER BY id",
                (tenant, user_id, 4 * dim),
            )
        return id_matrix(rows)

    def index_rows(self, tenant: str, user_id: str, dim: int) -> IndexRows:
        # The marks cost nothing beside the vectors: reading the rows is the cost (~0.3 s at 100k).
        # instr() before json_extract(): parsing every row's JSON costs ~1 s at 100k facts.
        rows = self._db.read(
            f"SELECT id, vector, {_MARK_COLUMNS},"
            " CASE WHEN instr(metadata, 'superseded_by') > 0 THEN json_extract(metadata, '$.superseded_by') END,"
            " importance FROM facts WHERE tenant = ? AND user_id = ? ORDER BY id",
            (tenant, user_id),
        )
        return index_rows(rows, dim)

    def _marks_where(
        self, tenant: str, user_id: str, where: str, args: Sequence[Any]
    ) -> list[tuple[int, TurnMark]]:
        rows = self._db.read(
            f"SELECT id, {_MARK_COLUMNS} FROM facts WHERE tenant = ? AND user_id = ?{where} ORDER BY id",
            (tenant, user_id, *args),
        )
        return [(int(row[0]), (row[1], row[2], said_day(row[3], row[4]))) for row in rows]

    def replace_vectors(self, tenant: str, user_id: str, vectors: Sequence[tuple[int, np.ndarray]]) -> None:
        if not vectors:
            return
        with self._db.transaction():
            ids, rows = [], []
            for fact_id, vector in sorted(vectors, key=lambda pair: pair[0]):
                data = blob(vector) or b""
                cur = self._db.write(
                    "UPDATE facts SET vector = ? WHERE id = ? AND tenant = ? AND user_id = ? AND length(vector) != ?",
                    (data, fact_id, tenant, user_id, len(data)),
                )
                if cur.rowcount:
                    ids.append(fact_id)
                    rows.append(vector)
            if ids:
                added = np.asarray(rows, dtype=np.float32)
                marks = dict(self._marks_where(tenant, user_id, f" AND id IN ({_marks(ids)})", ids))
                self._db.facts_changed(
                    FactsChange(
                        tenant,
                        user_id,
                        added_ids=ids,
                        added_vectors=added,
                        added_marks=[marks.get(i, ("", None, 0)) for i in ids],
                    )
                )

    def set_superseded(self, tenant: str, user_id: str, changes: dict[int, int | None]) -> None:
        if not changes:
            return
        with self._db.transaction():
            now = self._db.now_text()
            for before in self.get(tenant, user_id, changes):
                marked = revisions.superseded(before, changes[before.id])
                if marked is not None:
                    record_revision(self._db, tenant, user_id, before.id, *marked, None, now)
            for fact_id, by in changes.items():
                if by is None:
                    self._db.write(
                        "UPDATE facts SET metadata = json_remove(metadata, '$.superseded_by')"
                        " WHERE id = ? AND tenant = ? AND user_id = ?",
                        (fact_id, tenant, user_id),
                    )
                else:
                    self._db.write(
                        "UPDATE facts SET metadata = json_set(metadata, '$.superseded_by', ?)"
                        " WHERE id = ? AND tenant = ? AND user_id = ?",
                        (f"m_{by}", fact_id, tenant, user_id),
                    )
            self._db.facts_changed(FactsChange(tenant, user_id, superseded=dict(changes)))

    def delete(self, tenant: str, user_id: str, ids: Iterable[int], *, dry_run: bool = False) -> list[int]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        with self._db.transaction():
            found = [
                row[0]
                for row in self._db.read(
                    f"SELECT id FROM facts WHERE tenant = ? AND user_id = ? AND id IN ({_marks(ids)}) ORDER BY id",
                    (tenant, user_id, *ids),
                )
            ]
            if found and not dry_run:
                table = self._db.tenant_table(tenant, create=True)
                self._db.write(
                    f"DELETE FROM facts WHERE tenant = ? AND user_id = ? AND id IN ({_marks(found)})",
                    (tenant, user_id, *found),
                )
                for side in ("fact_revisions", "fact_feedback"):
                    self._db.write(f"DELETE FROM {side} WHERE fact_id IN ({_marks(found)})", found)
                self._db.write(f"DELETE FROM {table} WHERE rowid IN ({_marks(found)})", found)
                self._db.facts_changed(FactsChange(tenant, user_id, removed_ids=found))
        return found


# Below this many facts, matching a user's scope token costs under ~0.15 ms: no plan to choose.
_SCOPE_PLAN_MAX_FACTS = 2000
# A tenant's row read by the words-only plan costs about this many of the user's postings that
# the scope plan walks (measured: ~1 us against ~70 ns).
_TENANT_ROW_COST = 16


class SqliteLexical:
    """FTS5, one table per tenant: bm25's IDF and the document counts see that tenant only."""

    def __init__(self, db: _Db) -> None:
        self._db = db

    def document_frequencies(self, tenant: str, terms: Sequence[str]) -> dict[str, int]:
        table = self._db.tenant_table(tenant, create=False)
        if not terms or table is None:
            return {}
        rows = self._db.read(f"SELECT term, doc FROM {table}_vocab WHERE term IN ({_marks(terms)})", terms)
        return {row[0]: int(row[1]) for row in rows}

    def match(
        self,
        tenant: str,
        user_id: str,
        terms: Sequence[str],
        limit: int,
        *,
        prefix: bool = False,
        user_facts: int | None = None,
    ) -> list[tuple[int, float]]:
        table = self._db.tenant_table(tenant, create=False)
        if not terms or table is None:
            return []
        quoted = " OR ".join(
            '"' + t.rstrip("*").replace('"', '""') + '"' + ("*" if prefix and t.endswith("*") else "")
            for t in terms
        )
        scope = scope_token(tenant, user_id)
        # Two plans, the same rows and scores (the scope column weighs 0 in bm25). Matching the
        # scope token walks every posting of the user (7 ms at 100k facts); matching the words
        # alone and keeping the user's rows reads each fact of the tenant holding them (~1 us a
        # row). The second wins when the words are far rarer than the user's facts.
        if not prefix and user_facts is not None and user_facts > _SCOPE_PLAN_MAX_FACTS:
            holding = sum(self.document_frequencies(tenant, [t.rstrip("*") for t in terms]).values())
            if holding * _TENANT_ROW_COST < user_facts:
                return self._ranked(table, f"text : ({quoted})", limit, scope)
        return self._ranked(table, f'scope : "{scope}" AND text : ({quoted})', limit)

    def _ranked(
        self, table: str, query: str, limit: int, scope: str | None = None
    ) -> list[tuple[int, float]]:
        kept = "" if scope is None else " AND scope = ?"
        try:
            # FTS5's bm25() is negative, lower is better; relevance here is positive, higher better.
            rows = self._db.read(
                f"SELECT rowid, -bm25({table}, 0.0, 1.0) FROM {table} WHERE {table} MATCH ?{kept}"
                f" ORDER BY bm25({table}, 0.0, 1.0) LIMIT ?",
                (query, *(() if scope is None else (scope,)), limit),
            )
        except sqlite3.OperationalError:
            return []
        return [(int(r[0]), float(r[1])) for r in rows]


# ---- history ----------------------------------------------------------------------------------
def _new_row_id(db: _Db, kind: str) -> int:
    # History turns and state records share one id sequence (both are h_<n> on the wire).
    return int(db.write("INSERT INTO row_ids (kind) VALUES (?)", (kind,)).lastrowid or 0)


class SqliteTurns(BaseTurns):
    _db: _Db

    def add(self, tenant: str, user_id: str, turn: NewTurn) -> tuple[Turn, bool]:
        with self._db.transaction():
            existing = self._stored(tenant, user_id, turn)
            if existing is not None:
                return existing, False
            row_id = _new_row_id(self._db, "history")
            values = self._values(tenant, user_id, turn)
            self._db.write(
                f"INSERT INTO history (id, {self.COLUMNS}) VALUES (?, {_marks(values)})", (row_id, *values)
            )
            row = self._db.read("SELECT * FROM history WHERE id = ?", (row_id,))[0]
        return self._turn(row), True


# ---- state ------------------------------------------------------------------------------------
class SqliteState(BaseState):
    _db: _Db

    def put(self, tenant: str, user_id: str, record: NewState) -> tuple[StateRow, bool]:
        path = ns_path(record.namespace)
        namespace_json = json.dumps(record.namespace, ensure_ascii=False)
        vector = blob(record.vector)
        with self._db.transaction():
            found = self._db.read(
                "SELECT id FROM state WHERE tenant = ? AND user_id = ? AND source = ? AND ns_path = ? AND key = ?",
                (tenant, user_id, record.source, path, record.key),
            )
            now = self._db.now_text()
            if not found:
                row_id = _new_row_id(self._db, "state")
                self._db.write(
                    "INSERT INTO state (id, tenant, user_id, source, namespace, ns_path, key, value, text, indexed,"
                    " vector, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        row_id,
                        tenant,
                        user_id,
                        record.source,
                        namespace_json,
                        path,
                        record.key,
                        record.value_json,
                        record.text,
                        int(record.indexed),
                        vector,
                        now,
                        now,
                    ),
                )
            else:
                row_id = int(found[0][0])
                self._db.write(
                    "UPDATE state SET value = ?, text = ?, indexed = ?, vector = ?, updated_at = ?"
                    " WHERE tenant = ? AND user_id = ? AND id = ?",
                    (
                        record.value_json,
                        record.text,
                        int(record.indexed),
                        vector,
                        now,
                        tenant,
                        user_id,
                        row_id,
                    ),
                )
            row = self._db.read("SELECT * FROM state WHERE id = ?", (row_id,))[0]
        return self._state(row), not found


# ---- receipts and settings ------------------------------------------------------------------------
class SqliteReceipts(BaseReceipts):
    _db: _Db

    def claim_turn(self, tenant: str, user_id: str, digest: str, *, since: datetime) -> bool:
        with self._db.transaction():
            rows = self._db.read(
                "SELECT seen_at FROM receipts WHERE tenant = ? AND user_id = ? AND digest = ?",
                (tenant, user_id, digest),
            )
            if rows and _time(rows[0][0]) >= since:
                return False
            self._db.write(
                "INSERT INTO receipts (tenant, user_id, digest, seen_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (tenant, user_id, digest) DO UPDATE SET seen_at = excluded.seen_at",
                (tenant, user_id, digest, self._db.now_text()),
            )
        return True


class SqliteDirectory:
    # SQLite caps the parameters of one statement; a large user is deleted in slices.
    _SLICE = 500

    def __init__(self, db: _Db, facts: SqliteFacts, turns: SqliteTurns, state: SqliteState) -> None:
        self._db, self._facts, self._turns, self._state = db, facts, turns, state

    def users(self, tenant: str, limit: int, offset: int) -> tuple[list[UserSummary], int]:
        # One grouped pass per table over its (tenant, user_id, ...) index, then each user's
        # newest row by id: 15x faster than grouping a union of every row (100k facts: 20 vs 300 ms).
        counts: dict[str, list[int]] = {}
        latest: dict[str, str] = {}
        with self._db.reading() as conn:
            # A person's kept turns are not counted among their memories (they list on request only).
            for column, table, counted in ((0, "facts", _FACTS_ONLY), (1, "history", "COUNT(*)")):
                rows = conn.execute(
                    f"SELECT user_id, {counted}, MAX(id) FROM {table} WHERE tenant = ? GROUP BY user_id",
                    (tenant,),
                ).fetchall()
                newest = [r[2] for r in rows]
                stamps: dict[int, str] = {}
                for start in range(0, len(newest), self._SLICE):
                    part = newest[start : start + self._SLICE]
                    stamps.update(
                        conn.execute(
                            f"SELECT id, created_at FROM {table} WHERE id IN ({_marks(part)})", part
                        ).fetchall()
                    )
                for user_id, count, last_id in rows:
                    counts.setdefault(user_id, [0, 0, 0])[column] = int(count)
                    latest[user_id] = max(latest.get(user_id, ""), stamps.get(last_id, ""))
            for user_id, count, updated in conn.execute(
                "SELECT user_id, COUNT(*), MAX(updated_at) FROM state WHERE tenant = ? GROUP BY user_id",
                (tenant,),
            ).fetchall():
                counts.setdefault(user_id, [0, 0, 0])[2] = int(count)
                latest[user_id] = max(latest.get(user_id, ""), updated or "")
        # Stored times are fixed-width UTC text, so they sort chronologically as strings.
        order = sorted(counts)  # ties in activity: by user id (the sort below is stable)
        order.sort(key=latest.__getitem__, reverse=True)
        users = [
            UserSummary(u, counts[u][0], counts[u][1], counts[u][2], _time(latest[u]) if latest[u] else None)
            for u in order[offset : offset + limit]
        ]
        return users, len(order)

    def user(self, tenant: str, user_id: str) -> UserDetail:
        scope = (tenant, user_id)
        with self._db.reading() as conn:
            facts = conn.execute(
                f"SELECT {_FACTS_ONLY}, MAX(id) FROM facts WHERE tenant = ? AND user_id = ?", scope
            ).fetchone()
            sessions = conn.execute(
                "SELECT session_id, COUNT(*), GROUP_CONCAT(DISTINCT source), MIN(created_at), MAX(created_at),"
                " MAX(id) FROM history WHERE tenant = ? AND user_id = ? GROUP BY session_id"
                " ORDER BY MAX(created_at) DESC, session_id",
                scope,
            ).fetchall()
            state = conn.execute(
                "SELECT source, namespace, COUNT(*), MAX(updated_at) FROM state WHERE tenant = ? AND user_id = ?"
                " GROUP BY source, ns_path ORDER BY source, ns_path",
                scope,
            ).fetchall()
        return UserDetail(
            memories=int(facts[0] or 0),
            last_fact_id=facts[1],
            sessions=[
                SessionSummary(
                    r[0], int(r[1]), sorted((r[2] or "").split(",")), _time(r[3]), _time(r[4]), int(r[5])
                )
                for r in sessions
            ],
            state=[NamespaceSummary(r[0], json.loads(r[1]), int(r[2]), _time(r[3])) for r in state],
        )

    def forget_user(self, tenant: str, user_id: str) -> Forgotten:
        scope = (tenant, user_id)
        with self._db.transaction():
            facts = self._db.read("SELECT id, event_type FROM facts WHERE tenant = ? AND user_id = ?", scope)
            fact_ids = [r[0] for r in facts]
            # Kept turns go too, but are not counted among the person's memories (as everywhere).
            memories = sum(1 for r in facts if r[1] != KEPT_TURN)
            turn_ids = [
                r[0] for r in self._db.read("SELECT id FROM history WHERE tenant = ? AND user_id = ?", scope)
            ]
            state_ids = [
                r[0] for r in self._db.read("SELECT id FROM state WHERE tenant = ? AND user_id = ?", scope)
            ]
            for start in range(0, max(len(fact_ids), len(turn_ids), len(state_ids)), self._SLICE):
                self._facts.delete(tenant, user_id, fact_ids[start : start + self._SLICE])
                self._turns.delete(tenant, user_id, turn_ids[start : start + self._SLICE])
                self._state.delete(tenant, user_id, state_ids[start : start + self._SLICE])
            # Replay receipts and client refs would make a resent turn look "already stored".
            self._db.write("DELETE FROM receipts WHERE tenant = ? AND user_id = ?", scope)
            self._db.write("DELETE FROM client_refs WHERE tenant = ? AND user_id = ?", scope)
        return Forgotten(memories=memories, turns=len(turn_ids), state_items=len(state_ids))


class SqliteStorage(BaseStorage):
    """:class:`~.interfaces.Storage` over one SQLite file (created and migrated on open)."""

    _db: _Db

    def __init__(
        self, path: str | Path, *, clock: Clock = utc_now, lexical_form: LexicalForm = as_written
    ) -> None:
        self.path = str(path)
        self.clock = clock
        self._db = _Db(self.path, clock)
        self.facts = SqliteFacts(self._db, lexical_form)
        self.lexical = SqliteLexical(self._db)
        self.turns = SqliteTurns(self._db)
        self.state = SqliteState(self._db)
        self.receipts = SqliteReceipts(self._db)
        self.settings = Settings(self._db)
        self.directory = SqliteDirectory(self._db, self.facts, self.turns, self.state)

    def sync_facts(self, tenant: str, user_id: str) -> None:
        """Nothing to do: one process opens the file, and it announces its own commits."""

    def schema_version(self) -> int:
        return int(self._db.read("PRAGMA user_version")[0][0])

    def __repr__(self) -> str:
        return f"SqliteStorage({self.path!r})"
