"""The PostgreSQL engine: several server processes over one database.

psycopg 3 with a connection pool. A unit of work is one PostgreSQL transaction on one pooled
connection (per thread); reads outside one use any pooled connection. No process lock: what
must happen once is a unique constraint written with ``ON CONFLICT`` (see postgres_schema).

Full text: a ``tsvector`` of exact lower-cased words per fact, whose postings (``fact_terms``,
b-tree per user and term) find the facts holding a term; relevance is BM25 computed from
per-tenant statistics (``lexical_terms``, ``lexical_corpus``), which a
unit of work updates last, in key order, so concurrent writers never deadlock on them.

Vectors are float32 bytes, ranked in process like the SQLite engine's. Search caches them per
user; ``fact_versions`` (bumped by every change to a user's facts) tells a process when another
one changed a user it caches (:meth:`PostgresStorage.sync_facts`).

PostgreSQL text cannot hold NUL characters, which JSON strings may: text values are stored with
NUL as U+E000 "0" and U+E000 itself as U+E000 "1", and decoded on the way out.
"""

from __future__ import annotations

import json
import math
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import wraps
from typing import Any, TypeVar

import numpy as np
import psycopg
from psycopg.rows import dict_row, tuple_row
from psycopg_pool import ConnectionPool

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
    StorageConflict,
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
    PercentDialect,
    Settings,
    record_revision,
)
from ..interfaces import LexicalForm, as_written
from ..migrations import pending
from ..retry import run_atomic
from ..rows import FACT_COLUMNS, STATE_COLUMNS, Row, blob, dump, id_matrix, index_rows, ns_path
from .schema import MIGRATIONS

_ESC = "\ue000"
# Any constant: the lock that serialises schema migrations between processes starting together.
_MIGRATION_LOCK = 7_270_531_001
# FTS5's defaults, so both engines weigh term frequency and length alike.
_K1, _B = 1.2, 0.75
_ANALYZE_AFTER = 2000

# Counts a person's memories without their kept turns (a memory kind listed only on request).
_FACTS_ONLY = f"count(*) FILTER (WHERE event_type <> '{KEPT_TURN}')"


class _Postgres(PercentDialect):
    no_limit = None

    def same_text(self, column: str, value: str) -> tuple[str, list[Any]]:
        # The unique index holds md5(text): compared there first, then exactly.
        return f"md5({column}) = md5(%s) AND {column} = %s", [value, value]

    def texts_among(self, column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
        return (
            f"md5({column}) = ANY(ARRAY(SELECT md5(t) FROM unnest(%s::text[]) AS t)) AND {column} = ANY(%s::text[])",
            [list(values), list(values)],
        )

    def tags_hold(self, tags: Sequence[str]) -> tuple[str, list[Any]]:
        return "tags::jsonb @> %s::jsonb", [dump(list(tags))]

    def under(self, prefix: str) -> tuple[str, list[Any]]:
        return "starts_with(ns_path, %s)", [prefix]


_SQL = _Postgres(_FACTS_ONLY)


def schema_version(pool: ConnectionPool[Any]) -> int | None:
    """The schema version the database is at, or None before the first migration."""
    with pool.connection() as conn:
        try:
            row = conn.execute("SELECT coalesce(max(version), 0) AS v FROM schema_migrations").fetchone()
        except psycopg.errors.UndefinedTable:
            return None
    return int(row["v"]) if row is not None else None


def _enc(value: Any) -> Any:
    if isinstance(value, str):
        if "\x00" in value or _ESC in value:
            return value.replace(_ESC, _ESC + "1").replace("\x00", _ESC + "0")
        return value
    if isinstance(value, (list, tuple)):
        return [_enc(v) for v in value]
    return value


def _dec(value: Any) -> Any:
    if isinstance(value, str):
        if _ESC in value:
            return value.replace(_ESC + "0", "\x00").replace(_ESC + "1", _ESC)
        return value
    if isinstance(value, list):
        return [_dec(v) for v in value]
    return value


# A fact's TurnMark, read as (event type, metadata where it holds the key at all). Parsed here,
# not as jsonb: a "\u0000" that json.dumps wrote is valid JSON that jsonb refuses.
# The metadata is parsed only where it holds a key a mark reads.
_MARK_COLUMNS = (
    "event_type, CASE WHEN strpos(metadata, '\"distilled_from\"') > 0"
    " OR strpos(metadata, '\"occurred_at\"') > 0 THEN metadata END AS metadata, created_at"
)


def _mark(event_type: str, metadata: str | None, created_at: datetime) -> TurnMark:
    meta = {} if metadata is None else json.loads(metadata)
    return event_type, meta.get("distilled_from"), said_day(meta.get("occurred_at"), created_at)


def _index_row(
    fact_id: int,
    vector: bytes,
    event_type: str,
    metadata: str | None,
    created_at: datetime,
    importance: float | None,
) -> tuple[int, bytes, str, Any, Any, datetime, Any, float | None]:
    """A row of ``index_rows`` as ``rows.index_rows`` reads it (the metadata's keys apart)."""
    meta = {} if metadata is None else json.loads(_dec(metadata))
    return (
        fact_id,
        vector,
        _dec(event_type),
        meta.get("distilled_from"),
        meta.get("occurred_at"),
        created_at,
        meta.get("superseded_by"),
        importance,
    )


def _row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: _dec(v) for k, v in row.items()}


class _Tx:
    """One thread's open unit of work."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn
        self.depth = 1
        self.changes: list[FactsChange] = []
        self.terms: dict[tuple[str, str], int] = defaultdict(int)
        self.corpus: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.users: set[tuple[str, str]] = set()
        # (tenant, user) -> (version before, version after) of each user whose facts changed.
        self.bumps: dict[tuple[str, str], tuple[int, int]] = {}
        self.added = 0


class _Db:
    def __init__(self, dsn: str, clock: Clock, *, max_connections: int) -> None:
        self.dsn = dsn
        self.clock = clock
        self.pool: ConnectionPool[Any] = ConnectionPool(
            dsn,
            min_size=1,
            max_size=max_connections,
            # No server-side prepared statements: their generic plans ignore how selective a
            # user or a term is, and picked sequential scans here.
            kwargs={"autocommit": True, "row_factory": dict_row, "prepare_threshold": None},
            open=True,
            timeout=30,
        )
        self.listeners: list[FactsListener] = []
        self._local = threading.local()
        self._known: dict[tuple[str, str], int] = {}
        # Versions this process wrote that no later write has replaced yet: two of its own units
        # of work on one user (a request and the background embedder) may settle out of order.
        self._ours: dict[tuple[str, str], set[int]] = defaultdict(set)
        self._known_lock = threading.Lock()
        try:
            self._migrate()
        except BaseException:
            self.pool.close()  # e.g. a database a newer release migrated: nobody will close it later
            raise

    def _migrate(self) -> None:
        if schema_version(self.pool) == len(MIGRATIONS):
            # Current already (every start but the first): no lock to queue behind. Several
            # processes starting together (--workers N) would otherwise take turns here.
            return
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY,"
                " summary text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            row = conn.execute("SELECT coalesce(max(version), 0) AS v FROM schema_migrations").fetchone()
            where = self.dsn.split("@")[-1]
            for step in pending(MIGRATIONS, int(row["v"]), f"PostgreSQL database {where}"):
                with conn.transaction():
                    step.apply(conn)
                    conn.execute(
                        "INSERT INTO schema_migrations (version, summary) VALUES (%s, %s)",
                        (step.version, step.summary),
                    )

    def close(self) -> None:
        self.pool.close()

    # ---- unit of work -----------------------------------------------------------------------
    @property
    def tx(self) -> _Tx | None:
        return getattr(self._local, "tx", None)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        tx = self.tx
        if tx is not None:
            tx.depth += 1
            try:
                yield
            finally:
                tx.depth -= 1
            return
        with self.pool.connection() as conn:
            tx = _Tx(conn)
            self._local.tx = tx
            try:
                with conn.transaction():
                    yield
                    self._finish(tx)
            except BaseException as error:
                self._local.tx = None
                with self._known_lock:
                    for key, (_, version) in tx.bumps.items():
                        self._ours[key].discard(version)  # never committed
                if isinstance(error, psycopg.errors.DiskFull):
                    raise StorageFull(f"PostgreSQL: {error}") from error
                if isinstance(error, psycopg.Error) and (error.sqlstate or "").startswith("40"):
                    # Class 40, transaction rollback (a deadlock, a serialization failure): this
                    # unit of work was the one aborted. (psycopg files deadlocks elsewhere.)
                    raise StorageConflict(f"PostgreSQL: {error}") from error
                raise
            self._local.tx = None
        self._settle(tx)
        if tx.added >= _ANALYZE_AFTER:
            # A bulk load changes the tables' statistics far more than autovacuum's schedule
            # notices soon; stale statistics turn the postings lookups into sequential scans.
            with self.pool.connection() as conn:
                conn.execute("ANALYZE facts, fact_terms")

    def atomic(self, work: Callable[[], T]) -> T:
        return run_atomic(self.transaction, self.tx is not None, work)

    def _finish(self, tx: _Tx) -> None:
        """The last writes of a unit of work: statistics and versions, each in key order."""
        conn = tx.conn
        for tenant, user in sorted(tx.users):
            old = conn.execute(
                "SELECT version FROM fact_versions WHERE tenant = %s AND user_id = %s FOR UPDATE",
                _enc((tenant, user)),
            ).fetchone()
            new = conn.execute(
                "INSERT INTO fact_versions (tenant, user_id, version) VALUES (%s, %s, nextval('fact_versions_seq'))"
                " ON CONFLICT (tenant, user_id) DO UPDATE SET version = EXCLUDED.version RETURNING version",
                _enc((tenant, user)),
            ).fetchone()
            assert new is not None  # INSERT ... RETURNING always returns the row
            tx.bumps[(tenant, user)] = (int(old["version"]) if old else 0, int(new["version"]))
            with self._known_lock:
                self._ours[(tenant, user)].add(int(new["version"]))
        if tx.corpus:
            tenants = sorted(tx.corpus)
            conn.execute(
                "INSERT INTO lexical_corpus (tenant, docs, tokens)"
                " SELECT * FROM unnest(%s::text[], %s::bigint[], %s::bigint[]) ORDER BY 1"
                " ON CONFLICT (tenant) DO UPDATE SET docs = lexical_corpus.docs + EXCLUDED.docs,"
                " tokens = lexical_corpus.tokens + EXCLUDED.tokens",
                (_enc(tenants), [tx.corpus[t][0] for t in tenants], [tx.corpus[t][1] for t in tenants]),
            )
        deltas = sorted((key, n) for key, n in tx.terms.items() if n)
        if deltas:
            conn.execute(
                "INSERT INTO lexical_terms (tenant, term, docs)"
                " SELECT * FROM unnest(%s::text[], %s::text[], %s::bigint[]) ORDER BY 1, 2"
                " ON CONFLICT (tenant, term) DO UPDATE SET docs = lexical_terms.docs + EXCLUDED.docs",
                (_enc([k[0] for k, _ in deltas]), _enc([k[1] for k, _ in deltas]), [n for _, n in deltas]),
            )

    def _settle(self, tx: _Tx) -> None:
        """After commit: hand the committed changes to the listeners, unless another process
        changed the same user since this one last looked (then: "unknown", reload)."""
        stale = set()
        with self._known_lock:
            for key, (old, new) in tx.bumps.items():
                ours = self._ours[key]
                if self._known.get(key, 0) != old and old not in ours:
                    stale.add(key)
                ours.discard(old)  # no other write can follow it now
                self._known[key] = max(self._known.get(key, 0), new)
        for key in sorted(stale):
            self._announce(FactsChange(*key))
        for change in tx.changes:
            if (change.tenant, change.user_id) not in stale:
                self._announce(change)

    def _announce(self, change: FactsChange) -> None:
        for listener in self.listeners:
            listener(change)

    def sync(self, tenant: str, user_id: str) -> None:
        row = self.one(
            "SELECT version FROM fact_versions WHERE tenant = %s AND user_id = %s", (tenant, user_id)
        )
        version = int(row["version"]) if row else 0
        key = (tenant, user_id)
        with self._known_lock:
            if self._known.get(key, 0) >= version:
                return
            self._known[key] = version
        self._announce(FactsChange(tenant, user_id))

    # ---- statements --------------------------------------------------------------------------
    @contextmanager
    def conn(self) -> Iterator[psycopg.Connection[Any]]:
        tx = self.tx
        if tx is not None:
            yield tx.conn
            return
        with self.pool.connection() as conn:
            yield conn

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self.conn() as conn:
            cur = conn.execute(sql, _enc(list(params)))
            return [_row(r) for r in cur.fetchall()] if cur.description is not None else []

    def one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        rows = self.all(sql, params)
        return rows[0] if rows else None

    @contextmanager
    def snapshot(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection whose statements all see one snapshot (for a count and its page)."""
        tx = self.tx
        if tx is not None:
            yield tx.conn
            return
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield conn

    def require_tx(self) -> _Tx:
        tx = self.tx
        assert tx is not None, "call inside transaction()"
        return tx

    # ---- what the shared parts (base.py) call ------------------------------------------------
    dialect = _SQL
    rows = all

    def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.all(sql, params)

    def snapshot_rows(self, *statements: tuple[str, Sequence[Any]]) -> list[list[dict[str, Any]]]:
        with self.snapshot() as conn:
            return [
                [_row(r) for r in conn.execute(sql, _enc(list(params))).fetchall()]
                for sql, params in statements
            ]

    def stamp(self, moment: datetime | None = None) -> datetime:
        return self.clock() if moment is None else moment

    @staticmethod
    def time(stored: datetime) -> datetime:
        return stored  # psycopg reads timestamptz as an aware datetime already

    def facts_changed(self, change: FactsChange) -> None:
        """Announced once this unit of work commits; the user's version is bumped at its end."""
        tx = self.require_tx()
        tx.users.add((change.tenant, change.user_id))
        tx.changes.append(change)

    def delete_rows(self, table: str, tenant: str, user_id: str, ids: Sequence[int]) -> list[int]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        rows = self.all(
            f"DELETE FROM {table} WHERE tenant = %s AND user_id = %s AND id = ANY(%s) RETURNING id",
            (tenant, user_id, ids),
        )
        return sorted(int(r["id"]) for r in rows)


T = TypeVar("T")


def _atomic(method: Callable[..., T]) -> Callable[..., T]:
    """A write that opens its own unit of work when called outside one, retried on conflict."""

    @wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> T:
        result: T = self._db.atomic(lambda: method(self, *args, **kwargs))
        return result

    return run


# ---- facts ------------------------------------------------------------------------------------
def _at(moment: datetime) -> datetime:
    return moment  # psycopg reads timestamptz as an aware datetime already


class PostgresFacts(BaseFacts):
    _db: _Db

    @_atomic
    def add(self, tenant: str, user_id: str, facts: Sequence[NewFact]) -> list[int]:
        unique = list({f.text: f for f in reversed(facts)}.values())[::-1]  # first of each text
        if not unique:
            return []
        with self._db.transaction():
            tx = self._db.require_tx()
            now = self._db.clock()
            ids: list[int] = []
            added: list[NewFact] = []
            for start in range(0, len(unique), 2000):
                batch = unique[start : start + 2000]
                # Facts the user already holds (perhaps written just now elsewhere) are skipped.
                stored = {_dec(row["text"]): row for row in self._insert(tx, tenant, user_id, now, batch)}
                created: list[tuple[int, str, str, str | None]] = []
                for f in batch:
                    row = stored.get(f.text)
                    if row is None:
                        continue
                    ids.append(int(row["id"]))
                    added.append(f)
                    self._count(tx, tenant, _dec(row["words"]), int(row["length"]), +1)
                    changed, diff = revisions.created(f)
                    created.append((int(row["id"]), dump(changed), dump(diff), f.actor))
                self._log_created(tx, tenant, user_id, now, created)
            if ids:
                tx.added += len(ids)
                self._announce_added(tenant, user_id, ids, added)
        return ids

    def _insert(
        self, tx: _Tx, tenant: str, user_id: str, now: datetime, batch: Sequence[NewFact]
    ) -> list[Row]:
        """Inserts ``batch`` with its lexical terms (and their postings) in two statements; the rows
        stored (``id``, ``text``, ``words``, ``length``), not those the user already held."""
        rows = tx.conn.execute(
            "INSERT INTO facts (tenant, user_id, text, source, metadata, created_at, origin_kind,"
            " origin_id, vector, terms, length, tags, importance, event_type, updated_at)"
            " SELECT %s, %s, u.text, u.source, u.meta, %s, u.kind, u.origin, u.vec, v.terms,"
            " (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(v.terms)),"
            " u.tags, u.importance, u.event_type, %s"
            " FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::bigint[], %s::bytea[],"
            " %s::text[], %s::float8[], %s::text[], %s::text[])"
            " WITH ORDINALITY AS u(text, source, meta, kind, origin, vec, tags, importance, event_type,"
            " lexical, ord)"
            " CROSS JOIN LATERAL (SELECT to_tsvector('simple', u.lexical) AS terms) v ORDER BY u.ord"
            " ON CONFLICT DO NOTHING RETURNING id, text, tsvector_to_array(terms) AS words, length",
            (
                _enc(tenant),
                _enc(user_id),
                now,
                now,
                _enc([f.text for f in batch]),
                _enc([f.source for f in batch]),
                _enc([json.dumps(f.metadata, ensure_ascii=False) for f in batch]),
                [f.origin[0] if f.origin else None for f in batch],
                [f.origin[1] if f.origin else None for f in batch],
                [blob(f.vector) for f in batch],
                _enc([dump(f.tags) for f in batch]),
                [f.importance for f in batch],
                _enc([f.event_type for f in batch]),
                _enc([self._lexical_form(searched_by(f.text, f.metadata)) for f in batch]),
            ),
        ).fetchall()
        if rows:
            tx.conn.execute(
                "INSERT INTO fact_terms (tenant, user_id, term, fact_id, tf, length)"
                " SELECT f.tenant, f.user_id, w.lexeme, f.id, cardinality(w.positions), f.length"
                " FROM facts f CROSS JOIN LATERAL unnest(f.terms) w WHERE f.id = ANY(%s)",
                ([int(row["id"]) for row in rows],),
            )
        return list(rows)

    @staticmethod
    def _log_created(
        tx: _Tx, tenant: str, user_id: str, now: datetime, created: list[tuple[int, str, str, str | None]]
    ) -> None:
        """Each new fact's first revision (``created``: id, changed fields, diff, actor)."""
        if not created:
            return
        tx.conn.execute(
            "INSERT INTO fact_revisions (tenant, user_id, fact_id, revision, event, changed_fields,"
            " diff, actor, created_at) SELECT %s, %s, r.id, 0, 'created', r.changed, r.diff, r.actor, %s"
            " FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[]) AS r(id, changed, diff, actor)",
            (
                _enc(tenant),
                _enc(user_id),
                now,
                [c[0] for c in created],
                _enc([c[1] for c in created]),
                _enc([c[2] for c in created]),
                _enc([c[3] for c in created]),
            ),
        )

    @staticmethod
    def _count(tx: _Tx, tenant: str, words: Iterable[str], length: int, sign: int) -> None:
        for word in words:
            tx.terms[(tenant, word)] += sign
        corpus = tx.corpus[tenant]
        corpus[0] += sign
        corpus[1] += sign * length

    def lock(self, tenant: str, user_id: str, ids: Iterable[int]) -> list[Fact]:
        self._db.require_tx()
        rows = self._locked(tenant, user_id, ids, FACT_COLUMNS)
        return [self._fact(row) for row in rows]

    def _locked(self, tenant: str, user_id: str, ids: Iterable[int], columns: str) -> list[dict[str, Any]]:
        # Row locks in ascending id order (the sort runs below the lock), the order every writer uses.
        wanted = sorted(set(ids))
        if not wanted:
            return []
        return self._db.all(
            f"SELECT {columns} FROM facts WHERE tenant = %s AND user_id = %s AND id = ANY(%s)"
            " ORDER BY id FOR UPDATE",
            (tenant, user_id, wanted),
        )

    def vectors(self, tenant: str, user_id: str, *, dim: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        width = "" if dim is None else " AND length(vector) = %s"
        params: list[Any] = _enc([tenant, user_id]) + ([] if dim is None else [4 * dim])
        with self._db.conn() as conn:
            cur = conn.cursor(row_factory=tuple_row)
            rows = cur.execute(
                f"SELECT id, vector FROM facts WHERE tenant = %s AND user_id = %s{width} ORDER BY id", params
            ).fetchall()
        return id_matrix(rows)

    def index_rows(self, tenant: str, user_id: str, dim: int) -> IndexRows:
        # The metadata is parsed here, and only where it holds one of the two keys at all.
        with self._db.conn() as conn:
            cur = conn.cursor(row_factory=tuple_row)
            rows = cur.execute(
                "SELECT id, vector, event_type, CASE WHEN strpos(metadata, '\"distilled_from\"') > 0"
                " OR strpos(metadata, '\"occurred_at\"') > 0"
                " OR strpos(metadata, '\"superseded_by\"') > 0 THEN metadata END, created_at, importance"
                " FROM facts WHERE tenant = %s AND user_id = %s ORDER BY id",
                _enc([tenant, user_id]),
            ).fetchall()
        return index_rows([_index_row(*row) for row in rows], dim)

    def _marks_where(
        self, tenant: str, user_id: str, where: str, args: Sequence[Any]
    ) -> list[tuple[int, TurnMark]]:
        rows = self._db.all(
            f"SELECT id, {_MARK_COLUMNS} FROM facts WHERE tenant = %s AND user_id = %s{where} ORDER BY id",
            (tenant, user_id, *args),
        )
        return [
            (int(row["id"]), _mark(row["event_type"], row["metadata"], row["created_at"])) for row in rows
        ]

    @_atomic
    def replace_vectors(self, tenant: str, user_id: str, vectors: Sequence[tuple[int, np.ndarray]]) -> None:
        if not vectors:
            return
        with self._db.transaction():
            rows = self._db.all(
                "UPDATE facts SET vector = v.vector FROM unnest(%s::bigint[], %s::bytea[]) AS v(id, vector)"
                " WHERE facts.id = v.id AND facts.tenant = %s AND facts.user_id = %s"
                " AND length(facts.vector) <> length(v.vector) RETURNING facts.id",
                ([int(i) for i, _ in vectors], [blob(v) for _, v in vectors], tenant, user_id),
            )
            changed = {int(row["id"]) for row in rows}
            if changed:
                pairs = sorted(
                    (pair for pair in vectors if int(pair[0]) in changed), key=lambda pair: pair[0]
                )
                added = [int(i) for i, _ in pairs]
                marks = dict(self._marks_where(tenant, user_id, " AND id = ANY(%s)", (added,)))
                self._db.facts_changed(
                    FactsChange(
                        tenant,
                        user_id,
                        added_ids=added,
                        added_vectors=np.asarray([v for _, v in pairs], dtype=np.float32),
                        added_marks=[marks.get(i, ("", None, 0)) for i in added],
                    )
                )

    @_atomic
    def set_superseded(self, tenant: str, user_id: str, changes: dict[int, int | None]) -> None:
        if not changes:
            return
        with self._db.transaction():
            rows = self._db.all(
                f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = %s AND user_id = %s AND id = ANY(%s)"
                " ORDER BY id FOR UPDATE",
                (tenant, user_id, list(changes)),
            )
            ids, metas = [], []
            now = self._db.clock()
            for row in rows:
                marked = revisions.superseded(self._fact(row), changes[int(row["id"])])
                if marked is not None:
                    record_revision(self._db, tenant, user_id, int(row["id"]), *marked, None, now)
                meta = json.loads(row["metadata"])
                by = changes[int(row["id"])]
                if by is None:
                    meta.pop("superseded_by", None)
                else:
                    meta["superseded_by"] = f"m_{by}"
                ids.append(int(row["id"]))
                metas.append(json.dumps(meta, ensure_ascii=False))
            if ids:
                self._db.all(
                    "UPDATE facts SET metadata = v.metadata FROM unnest(%s::bigint[], %s::text[]) AS v(id, metadata)"
                    " WHERE facts.id = v.id",
                    (ids, metas),
                )
            self._db.facts_changed(FactsChange(tenant, user_id, superseded=dict(changes)))

    @_atomic
    def delete(self, tenant: str, user_id: str, ids: Iterable[int], *, dry_run: bool = False) -> list[int]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        if dry_run:
            rows = self._db.all(
                "SELECT id FROM facts WHERE tenant = %s AND user_id = %s AND id = ANY(%s) ORDER BY id",
                (tenant, user_id, ids),
            )
            return [int(r["id"]) for r in rows]
        with self._db.transaction():
            tx = self._db.require_tx()
            # Locked first, in id order: a DELETE alone locks in whatever order it finds rows.
            ids = [int(row["id"]) for row in self._locked(tenant, user_id, ids, "id")]
            rows = (
                self._db.all(
                    "DELETE FROM facts WHERE tenant = %s AND user_id = %s AND id = ANY(%s)"
                    " RETURNING id, tsvector_to_array(terms) AS words, length",
                    (tenant, user_id, ids),
                )
                if ids
                else []
            )
            for row in rows:
                self._count(tx, tenant, row["words"], int(row["length"]), -1)
            found = sorted(int(r["id"]) for r in rows)
            if found:
                self._db.facts_changed(FactsChange(tenant, user_id, removed_ids=found))
        return found


class PostgresLexical:
    """Postings per user (from each fact's tsvector), BM25 from the tenant's own statistics."""

    def __init__(self, db: _Db) -> None:
        self._db = db

    def document_frequencies(self, tenant: str, terms: Sequence[str]) -> dict[str, int]:
        if not terms:
            return {}
        rows = self._db.all(
            "SELECT term, docs FROM lexical_terms WHERE tenant = %s AND term = ANY(%s) AND docs > 0",
            (tenant, list(terms)),
        )
        return {r["term"]: int(r["docs"]) for r in rows}

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
        # The postings are indexed by (tenant, user, term): one plan whatever ``user_facts`` is.
        # Each query term is an exact word, or (with prefix) "cheer*": every word it begins.
        wanted = [(t[:-1], True) if prefix and t.endswith("*") else (t, False) for t in dict.fromkeys(terms)]
        wanted = [(w, is_prefix) for w, is_prefix in wanted if w]
        if not wanted:
            return []
        with self._db.snapshot() as conn:
            corpus = conn.execute(
                "SELECT docs, tokens FROM lexical_corpus WHERE tenant = %s", (_enc(tenant),)
            ).fetchone()
            if not corpus or not corpus["docs"]:
                return []
            docs = max(int(corpus["docs"]), 1)
            avgdl = max(int(corpus["tokens"]), 1) / docs
            idf, hits, params = [], [], []
            for word, is_prefix in wanted:
                if is_prefix:
                    low, high = _enc(word), _enc(word) + "\U0010ffff"
                    row = conn.execute(
                        "SELECT coalesce(sum(docs), 0) AS n FROM lexical_terms WHERE tenant = %s"
                        " AND term >= %s AND term < %s",
                        (_enc(tenant), low, high),
                    ).fetchone()
                    where, args = "p.term >= %s AND p.term < %s", [low, high]
                else:
                    row = conn.execute(
                        "SELECT docs AS n FROM lexical_terms WHERE tenant = %s AND term = %s",
                        (_enc(tenant), _enc(word)),
                    ).fetchone()
                    where, args = "p.term = %s", [_enc(word)]
                df = min(int(row["n"]) if row else 0, docs)
                if not df:
                    continue
                # BM25 as FTS5 computes it: IDF clamped to a tiny positive value for common terms.
                idf.append(max(math.log((docs - df + 0.5) / (df + 0.5)), 1e-6))
                hits.append(
                    f"SELECT p.fact_id, {len(idf)} AS q, p.tf, p.length FROM fact_terms p"
                    f" WHERE p.tenant = %s AND p.user_id = %s AND {where}"
                )
                params += [_enc(tenant), _enc(user_id), *args]
            if not hits:
                return []
            rows = conn.execute(
                "SELECT g.fact_id AS id, sum(w.idf * g.tf * %s / (g.tf + %s * (1 - %s + %s * g.length / %s)))"
                " AS score FROM (SELECT h.fact_id, h.q, sum(h.tf) AS tf, max(h.length) AS length FROM ("
                + " UNION ALL ".join(hits)
                + ") h GROUP BY h.fact_id, h.q) g"
                " JOIN unnest(%s::float8[]) WITH ORDINALITY AS w(idf, q) ON w.q = g.q"
                " GROUP BY g.fact_id ORDER BY score DESC, g.fact_id LIMIT %s",
                (_K1 + 1, _K1, _B, _B, avgdl, *params, idf, limit),
            ).fetchall()
        return [(int(r["id"]), float(r["score"])) for r in rows]


# ---- history ----------------------------------------------------------------------------------
class PostgresTurns(BaseTurns):
    _db: _Db

    @_atomic
    def add(self, tenant: str, user_id: str, turn: NewTurn) -> tuple[Turn, bool]:
        with self._db.transaction():
            found = self._stored(tenant, user_id, turn)
            if found is not None:
                return found, False
            values = self._values(tenant, user_id, turn)
            row = self._db.one(
                f"INSERT INTO history (id, {self.COLUMNS}) VALUES (nextval('row_ids'), {', '.join(['%s'] * len(values))})"
                " ON CONFLICT DO NOTHING RETURNING *",
                values,
            )
            if row is not None:
                return self._turn(row), True
            found = self._stored(tenant, user_id, turn)  # another process stored it a moment ago
            if found is None:
                raise RuntimeError("history insert conflicted with a turn that is not there")
            return found, False


# ---- state ------------------------------------------------------------------------------------
class PostgresState(BaseState):
    _db: _Db

    def put(self, tenant: str, user_id: str, record: NewState) -> tuple[StateRow, bool]:
        now = self._db.clock()
        row = self._db.one(
            "INSERT INTO state (id, tenant, user_id, source, namespace, ns_path, key, value, text, indexed,"
            " vector, created_at, updated_at) VALUES (nextval('row_ids'), %s, %s, %s, %s, %s, %s, %s, %s, %s,"
            " %s, %s, %s) ON CONFLICT (tenant, user_id, source, ns_path, key) DO UPDATE SET"
            " value = EXCLUDED.value, text = EXCLUDED.text, indexed = EXCLUDED.indexed,"
            " vector = EXCLUDED.vector, updated_at = EXCLUDED.updated_at"
            f" RETURNING {STATE_COLUMNS}, (xmax = 0) AS created",
            (
                tenant,
                user_id,
                record.source,
                json.dumps(record.namespace, ensure_ascii=False),
                ns_path(record.namespace),
                record.key,
                record.value_json,
                record.text,
                record.indexed,
                blob(record.vector),
                now,
                now,
            ),
        )
        assert row is not None
        return self._state(row), bool(row["created"])


# ---- receipts and settings ----------------------------------------------------------------------
class PostgresReceipts(BaseReceipts):
    _db: _Db

    def claim_turn(self, tenant: str, user_id: str, digest: str, *, since: datetime) -> bool:
        row = self._db.one(
            "INSERT INTO receipts (tenant, user_id, digest, seen_at) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (tenant, user_id, digest) DO UPDATE SET seen_at = EXCLUDED.seen_at"
            " WHERE receipts.seen_at < %s RETURNING 1 AS claimed",
            (tenant, user_id, digest, self._db.clock(), since),
        )
        return row is not None


class PostgresDirectory:
    def __init__(self, db: _Db, facts: PostgresFacts) -> None:
        self._db, self._facts = db, facts

    def users(self, tenant: str, limit: int, offset: int) -> tuple[list[UserSummary], int]:
        with self._db.snapshot() as conn:
            rows = conn.execute(
                "SELECT user_id, sum(m) AS m, sum(t) AS t, sum(s) AS s, max(at) AS at FROM ("
                f" SELECT user_id, {_FACTS_ONLY} AS m, 0 AS t, 0 AS s, max(created_at) AS at FROM facts"
                " WHERE tenant = %(t)s GROUP BY user_id UNION ALL"
                " SELECT user_id, 0, count(*), 0, max(created_at) FROM history WHERE tenant = %(t)s GROUP BY user_id"
                " UNION ALL SELECT user_id, 0, 0, count(*), max(updated_at) FROM state WHERE tenant = %(t)s"
                " GROUP BY user_id) u GROUP BY user_id ORDER BY max(at) DESC NULLS LAST, user_id",
                {"t": _enc(tenant)},
            ).fetchall()
        users = [
            UserSummary(_dec(r["user_id"]), int(r["m"]), int(r["t"]), int(r["s"]), r["at"])
            for r in rows[offset : offset + limit]
        ]
        return users, len(rows)

    def user(self, tenant: str, user_id: str) -> UserDetail:
        scope = _enc([tenant, user_id])
        with self._db.snapshot() as conn:
            facts = conn.execute(
                f"SELECT {_FACTS_ONLY} AS n, max(id) AS last FROM facts WHERE tenant = %s AND user_id = %s",
                scope,
            ).fetchone()
            sessions = conn.execute(
                "SELECT session_id, count(*) AS n, array_agg(DISTINCT source) AS sources, min(created_at) AS first,"
                " max(created_at) AS last, max(id) AS last_id FROM history WHERE tenant = %s AND user_id = %s"
                " GROUP BY session_id ORDER BY max(created_at) DESC, session_id",
                scope,
            ).fetchall()
            state = conn.execute(
                "SELECT source, min(namespace) AS namespace, count(*) AS n, max(updated_at) AS at FROM state"
                " WHERE tenant = %s AND user_id = %s GROUP BY source, ns_path ORDER BY source, ns_path",
                scope,
            ).fetchall()
        return UserDetail(
            memories=int(facts["n"]) if facts else 0,
            last_fact_id=facts["last"] if facts else None,
            sessions=[
                SessionSummary(
                    _dec(r["session_id"]),
                    int(r["n"]),
                    sorted(_dec(r["sources"])),
                    r["first"],
                    r["last"],
                    int(r["last_id"]),
                )
                for r in sessions
            ],
            state=[
                NamespaceSummary(_dec(r["source"]), json.loads(_dec(r["namespace"])), int(r["n"]), r["at"])
                for r in state
            ],
        )

    @_atomic
    def forget_user(self, tenant: str, user_id: str) -> Forgotten:
        with self._db.transaction():
            rows = self._db.all(
                "SELECT id, event_type FROM facts WHERE tenant = %s AND user_id = %s", (tenant, user_id)
            )
            fact_ids = [int(r["id"]) for r in rows]
            # Kept turns go too, but are not counted among the person's memories (as everywhere).
            memories = sum(1 for r in rows if r["event_type"] != KEPT_TURN)
            self._facts.delete(tenant, user_id, fact_ids)
            counts = {}
            for table in ("history", "state"):
                rows = self._db.all(
                    f"DELETE FROM {table} WHERE tenant = %s AND user_id = %s RETURNING id", (tenant, user_id)
                )
                counts[table] = len(rows)
            # Replay receipts and client refs would make a resent turn look "already stored".
            self._db.all("DELETE FROM receipts WHERE tenant = %s AND user_id = %s", (tenant, user_id))
            self._db.all("DELETE FROM client_refs WHERE tenant = %s AND user_id = %s", (tenant, user_id))
        return Forgotten(memories=memories, turns=counts["history"], state_items=counts["state"])


class PostgresStorage(BaseStorage):
    """:class:`~.interfaces.Storage` over a PostgreSQL database (migrated on open)."""

    _db: _Db

    def __init__(
        self,
        dsn: str,
        *,
        clock: Clock = utc_now,
        max_connections: int = 16,
        lexical_form: LexicalForm = as_written,
    ) -> None:
        self.dsn = dsn
        self.clock = clock
        self._db = _Db(dsn, clock, max_connections=max_connections)
        self.facts = PostgresFacts(self._db, lexical_form)
        self.lexical = PostgresLexical(self._db)
        self.turns = PostgresTurns(self._db)
        self.state = PostgresState(self._db)
        self.receipts = PostgresReceipts(self._db)
        self.settings = Settings(self._db)
        self.directory = PostgresDirectory(self._db, self.facts)

    def sync_facts(self, tenant: str, user_id: str) -> None:
        self._db.sync(tenant, user_id)

    def schema_version(self) -> int:
        row = self._db.one("SELECT coalesce(max(version), 0) AS v FROM schema_migrations")
        return int(row["v"]) if row else 0

    def __repr__(self) -> str:
        return f"PostgresStorage({self.dsn.split('@')[-1]!r})"
