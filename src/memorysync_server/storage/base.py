"""What both engines do alike, written once: each store's flow, its guards and its row mapping,
over the few things an engine's connection layer (:class:`Statements`) and SQL dialect
(:class:`Dialect`) say differently.

An engine subclasses these parts and writes only what its SQL makes different: how a fact is
added with its full-text postings, how an upsert is written, how rows are locked and deleted.
Statements here are written with ``?`` marks; :meth:`Dialect.sql` turns them into the engine's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from functools import lru_cache
from typing import Any, Protocol, TypeVar

import numpy as np

from ..domain import (
    KEPT_TURN,
    Clock,
    Fact,
    FactFilter,
    FactsChange,
    FactsListener,
    Feedback,
    NewFact,
    NewState,
    NewTurn,
    Revision,
    StateRow,
    Turn,
    said_day,
)
from . import revisions
from .interfaces import LexicalForm, as_written
from .rows import FACT_COLUMNS, STATE_COLUMNS, Row, by_text, dump, ns_path, revision_page
from .rows import fact as fact_of
from .rows import state as state_of
from .rows import turn as turn_of

T = TypeVar("T")


class Dialect:
    """How an engine's SQL writes what the two dialects write differently."""

    mark = "?"
    # LIMIT's value for "no limit".
    no_limit: Any = -1
    # The facts table as read by id (SQLite: by rowid, past the scope index).
    facts_by_id = "facts"

    def __init__(self, facts_only: str) -> None:
        # An aggregate counting a person's memories without their kept turns.
        self.facts_only = facts_only

    def sql(self, text: str) -> str:
        """``text``, written with ``?`` marks, in this dialect."""
        return text

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        return f"{column} IN ({','.join('?' * len(values))})", list(values)

    def same_text(self, column: str, value: str) -> tuple[str, list[Any]]:
        return f"{column} = ?", [value]

    def texts_among(self, column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
        return self.one_of(column, values)

    def tags_hold(self, tags: Sequence[str]) -> tuple[str, list[Any]]:
        raise NotImplementedError

    def under(self, prefix: str) -> tuple[str, list[Any]]:
        """State rows whose ``ns_path`` starts with ``prefix``."""
        raise NotImplementedError

    def scope(
        self, tenant: str, user_id: str, equal: Mapping[str, Any], among: tuple[str, Sequence[Any] | None]
    ) -> tuple[str, list[Any]] | None:
        """One user's rows whose ``equal`` columns (None: any) hold those values and whose
        ``among[0]`` column is one of ``among[1]`` (None: any); None when that list is empty."""
        where = "tenant = ? AND user_id = ?"
        params: list[Any] = [tenant, user_id]
        for column, value in equal.items():
            if value is not None:
                where += f" AND {column} = ?"
                params.append(value)
        column, values = among
        if values is not None:
            if not values:
                return None
            test, more = self.one_of(column, values)
            where += f" AND {test}"
            params += more
        return self.sql(where), params


class PercentDialect(Dialect):
    """A dialect whose driver marks parameters ``%s`` (psycopg)."""

    mark = "%s"

    def sql(self, text: str) -> str:
        return _percent(text)

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        return f"{column} = ANY(%s)", [list(values)]


@lru_cache(maxsize=512)
def _percent(text: str) -> str:
    return text.replace("?", "%s")


class Statements(Protocol):
    """What the parts below need from an engine's connection layer."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def listeners(self) -> list[FactsListener]: ...

    def rows(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Row]:
        """A statement's rows (inside this thread's unit of work: seeing its writes)."""
        ...

    def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        """A statement that writes."""
        ...

    def snapshot_rows(self, *statements: tuple[str, Sequence[Any]]) -> Sequence[Sequence[Row]]:
        """Each statement's rows, all read in one snapshot (a count and its page)."""
        ...

    def transaction(self) -> AbstractContextManager[None]: ...

    def atomic(self, work: Callable[[], T]) -> T: ...

    def stamp(self, moment: datetime | None = None) -> Any:
        """``moment`` (None: now) as the engine stores a time."""
        ...

    def time(self, stored: Any) -> datetime:
        """A stored time as an aware datetime."""
        ...

    def facts_changed(self, change: FactsChange) -> None:
        """Announce ``change`` to the listeners once its unit of work commits."""
        ...

    def delete_rows(self, table: str, tenant: str, user_id: str, ids: Sequence[int]) -> list[int]:
        """Delete the user's rows of ``table`` among ``ids``; those that existed, ascending."""
        ...

    def close(self) -> None: ...


def record_revision(
    db: Statements,
    tenant: str,
    user_id: str,
    fact_id: int,
    event: str,
    changed: list[str],
    diff: dict[str, Any],
    actor: str | None,
    now: Any,
) -> None:
    # The caller holds the fact (SQLite: the writer's lock, PostgreSQL: its row lock), so the
    # next number is this unit of work's alone. Revision 0 is "created"; later ones count up
    # from 1 (also for facts whose "created" revision was never stored, see revisions.with_created).
    db.run(
        db.dialect.sql(
            "INSERT INTO fact_revisions (tenant, user_id, fact_id, revision, event, changed_fields, diff, actor,"
            " created_at) SELECT ?, ?, ?, COALESCE(MAX(revision), 0) + 1, ?, ?, ?, ?, ? FROM fact_revisions"
            " WHERE fact_id = ?"
        ),
        (tenant, user_id, fact_id, event, dump(changed), dump(diff), actor, now, fact_id),
    )


class _Part:
    """One store of an engine: its statements and their dialect."""

    def __init__(self, db: Statements) -> None:
        self._db = db
        self._sql = db.dialect

    def _ids_in(self, table: str, scope: tuple[str, list[Any]] | None) -> list[int]:
        """The ids of ``table``'s rows in ``scope`` (a ``Dialect.scope``; None: none), ascending."""
        if scope is None:
            return []
        return [
            int(row["id"])
            for row in self._db.rows(f"SELECT id FROM {table} WHERE {scope[0]} ORDER BY id", scope[1])
        ]


# ---- facts ------------------------------------------------------------------------------------
class BaseFacts(_Part):
    """The fact reads and edits both dialects write alike. An engine adds ``add``, ``lock``,
    ``vectors``, ``index_rows``, ``replace_vectors``, ``set_superseded`` and ``delete``."""

    def __init__(self, db: Statements, lexical_form: LexicalForm = as_written) -> None:
        super().__init__(db)
        self._lexical_form = lexical_form

    def _fact(self, row: Row) -> Fact:
        return fact_of(row, self._db.time)

    def _ids(self, sql: str, params: Sequence[Any]) -> list[int]:
        return [int(row["id"]) for row in self._db.rows(self._sql.sql(sql), params)]

    def lock(self, tenant: str, user_id: str, ids: Iterable[int]) -> list[Fact]:
        raise NotImplementedError

    def _announce_added(self, tenant: str, user_id: str, ids: list[int], facts: Sequence[NewFact]) -> None:
        """Tells the listeners (the search index) which facts ``add`` stored, ``facts[i]`` as ``ids[i]``."""
        now = self._db.clock()
        self._db.facts_changed(
            FactsChange(
                tenant,
                user_id,
                added_ids=ids,
                added_vectors=np.asarray([f.vector for f in facts], dtype=np.float32),
                added_marks=[
                    (
                        f.event_type,
                        f.metadata.get("distilled_from"),
                        said_day(f.metadata.get("occurred_at"), now),
                    )
                    for f in facts
                ],
            )
        )

    def find_by_text(self, tenant: str, user_id: str, text: str) -> Fact | None:
        same, params = self._sql.same_text("text", text)
        rows = self._db.rows(
            self._sql.sql(
                f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = ? AND user_id = ? AND {same} ORDER BY id LIMIT 1"
            ),
            (tenant, user_id, *params),
        )
        return self._fact(rows[0]) if rows else None

    def find_texts(self, tenant: str, user_id: str, texts: Sequence[str]) -> dict[str, Fact]:
        texts = list(dict.fromkeys(texts))
        if not texts:
            return {}
        among, params = self._sql.texts_among("text", texts)
        rows = self._db.rows(
            self._sql.sql(
                f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = ? AND user_id = ? AND {among} ORDER BY id"
            ),
            (tenant, user_id, *params),
        )
        return by_text(self._fact(row) for row in rows)

    def get(self, tenant: str, user_id: str, ids: Iterable[int]) -> list[Fact]:
        ids = list(ids)
        if not ids:
            return []
        among, params = self._sql.one_of("id", ids)
        rows = self._db.rows(
            self._sql.sql(
                f"SELECT {FACT_COLUMNS} FROM {self._sql.facts_by_id} WHERE tenant = ? AND user_id = ? AND {among}"
            ),
            (tenant, user_id, *params),
        )
        by_id = {row["id"]: self._fact(row) for row in rows}
        return [by_id[i] for i in ids if i in by_id]

    def page(
        self, tenant: str, user_id: str, limit: int, offset: int, *, kept_turns: bool = False
    ) -> tuple[list[Fact], int]:
        kinds = "" if kept_turns else f" AND event_type <> '{KEPT_TURN}'"
        where = self._sql.sql(f"tenant = ? AND user_id = ?{kinds}")
        scope = (tenant, user_id)
        total, rows = self._db.snapshot_rows(
            (f"SELECT COUNT(*) AS n FROM facts WHERE {where}", scope),
            (
                f"SELECT {FACT_COLUMNS} FROM facts WHERE {where} ORDER BY id DESC {self._sql.sql('LIMIT ? OFFSET ?')}",
                (*scope, limit if limit > 0 else self._sql.no_limit, offset),
            ),
        )
        return [self._fact(row) for row in rows], int(total[0]["n"])

    def unembedded(self, limit: int) -> list[tuple[str, str, int]]:
        rows = self._db.rows(
            self._sql.sql(
                "SELECT tenant, user_id, id FROM facts WHERE length(vector) = 0 ORDER BY id LIMIT ?"
            ),
            (limit,),
        )
        return [(row["tenant"], row["user_id"], int(row["id"])) for row in rows]

    def update(
        self, tenant: str, user_id: str, fact_id: int, fields: dict[str, Any], *, actor: str | None
    ) -> tuple[Fact, list[str]] | None:
        def work() -> tuple[Fact, list[str]] | None:
            found = self.lock(tenant, user_id, [fact_id])
            if not found:
                return None
            changed, diff = revisions.changes(found[0], fields)
            if not changed:
                return found[0], []
            now = self._db.stamp()
            encode = {"tags": dump, "metadata": dump}
            sets = ", ".join(f"{name} = ?" for name in changed)
            self._db.run(
                self._sql.sql(
                    f"UPDATE facts SET {sets}, updated_at = ? WHERE id = ? AND tenant = ? AND user_id = ?"
                ),
                (
                    *(encode.get(name, lambda v: v)(fields[name]) for name in changed),
                    now,
                    fact_id,
                    tenant,
                    user_id,
                ),
            )
            record_revision(self._db, tenant, user_id, fact_id, "updated", changed, diff, actor, now)
            importance = {fact_id: fields["importance"]} if "importance" in changed else None
            self._db.facts_changed(FactsChange(tenant, user_id, importance=importance, edited_ids=[fact_id]))
            return self.get(tenant, user_id, [fact_id])[0], changed

        return self._db.atomic(work)

    def revisions(
        self, tenant: str, user_id: str, fact_id: int, limit: int, offset: int
    ) -> tuple[list[Revision], int]:
        fact, rows = self._db.snapshot_rows(
            (
                self._sql.sql(
                    f"SELECT {FACT_COLUMNS} FROM facts WHERE id = ? AND tenant = ? AND user_id = ?"
                ),
                (fact_id, tenant, user_id),
            ),
            (self._sql.sql("SELECT * FROM fact_revisions WHERE fact_id = ? ORDER BY revision"), (fact_id,)),
        )
        if not fact:
            return [], 0
        return revision_page(rows, self._fact(fact[0]), self._db.time, limit, offset)

    def select(self, tenant: str, user_id: str, where: FactFilter) -> list[int]:
        if where.empty:
            raise ValueError("an empty filter selects every fact; name at least one criterion")
        sql = "tenant = ? AND user_id = ?"
        params: list[Any] = [tenant, user_id]
        for column, value in (("source", where.source), ("event_type", where.event_type)):
            if value is not None:
                sql += f" AND {column} = ?"
                params.append(value)
        if where.tags:
            held, more = self._sql.tags_hold(where.tags)
            sql += f" AND {held}"
            params += more
        for test, moment in (("<", where.before), (">", where.after)):
            if moment is not None:
                sql += f" AND created_at {test} ?"
                params.append(self._db.stamp(moment))
        return self._ids(f"SELECT id FROM facts WHERE {sql} ORDER BY id", params)

    def event_types(self, tenant: str) -> set[str]:
        rows = self._db.rows(
            self._sql.sql("SELECT DISTINCT event_type FROM facts WHERE tenant = ?"), (tenant,)
        )
        return {row["event_type"] for row in rows}

    def add_feedback(self, tenant: str, user_id: str, fact_id: int, signal: str, comment: str | None) -> None:
        self._db.run(
            self._sql.sql(
                "INSERT INTO fact_feedback (tenant, user_id, fact_id, signal, comment, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)"
            ),
            (tenant, user_id, fact_id, signal, comment, self._db.stamp()),
        )

    def feedback(self, tenant: str, user_id: str, fact_id: int) -> list[Feedback]:
        rows = self._db.rows(
            self._sql.sql(
                "SELECT signal, created_at FROM fact_feedback WHERE fact_id = ? AND tenant = ? AND user_id = ?"
                " ORDER BY id"
            ),
            (fact_id, tenant, user_id),
        )
        return [Feedback(row["signal"], self._db.time(row["created_at"])) for row in rows]

    def derived(self, tenant: str, user_id: str, kind: str, origin_ids: Iterable[int]) -> list[int]:
        origin_ids = list(origin_ids)
        if not origin_ids:
            return []
        among, params = self._sql.one_of("origin_id", origin_ids)
        return self._ids(
            f"SELECT id FROM facts WHERE tenant = ? AND user_id = ? AND origin_kind = ? AND {among} ORDER BY id",
            (tenant, user_id, kind, *params),
        )

    def count(self, tenant: str) -> int:
        rows = self._db.rows(
            self._sql.sql(f"SELECT {self._sql.facts_only} AS n FROM facts WHERE tenant = ?"), (tenant,)
        )
        return int(rows[0]["n"] or 0) if rows else 0


# ---- history ----------------------------------------------------------------------------------
class BaseTurns(_Part):
    """A person's transcript. An engine adds ``add`` (its insert that keeps a turn once)."""

    def _turn(self, row: Row) -> Turn:
        return turn_of(row, self._db.time)

    def find(
        self,
        tenant: str,
        user_id: str,
        session_id: str,
        *,
        idem_key: str | None,
        seq: int | None,
        role: str,
        content: str,
    ) -> Turn | None:
        scope = "SELECT * FROM history WHERE tenant = ? AND user_id = ? AND session_id = ?"
        if idem_key is not None:
            rows = self._db.rows(
                self._sql.sql(f"{scope} AND idem_key = ? LIMIT 1"), (tenant, user_id, session_id, idem_key)
            )
            if rows:
                return self._turn(rows[0])
        if seq is not None:
            same, params = self._sql.same_text("content", content)
            rows = self._db.rows(
                self._sql.sql(f"{scope} AND seq = ? AND role = ? AND {same} LIMIT 1"),
                (tenant, user_id, session_id, seq, role, *params),
            )
            if rows:
                return self._turn(rows[0])
        return None

    def add(self, tenant: str, user_id: str, turn: NewTurn) -> tuple[Turn, bool]:
        raise NotImplementedError

    # The columns an engine's ``add`` writes, and their values for ``turn``.
    COLUMNS = (
        "tenant, user_id, session_id, source, role, content, seq, occurred_at, payload, idem_key, created_at"
    )

    def _values(self, tenant: str, user_id: str, turn: NewTurn) -> tuple[Any, ...]:
        return (
            tenant,
            user_id,
            turn.session_id,
            turn.source,
            turn.role,
            turn.content,
            turn.seq,
            turn.occurred_at,
            turn.payload_json,
            turn.idem_key,
            self._db.stamp(),
        )

    def _stored(self, tenant: str, user_id: str, turn: NewTurn) -> Turn | None:
        """The turn as stored already (by its idempotency key, or its place and words)."""
        return self.find(
            tenant,
            user_id,
            turn.session_id,
            idem_key=turn.idem_key,
            seq=turn.seq,
            role=turn.role,
            content=turn.content,
        )

    def page(
        self, tenant: str, user_id: str, session_id: str, source: str | None, limit: int
    ) -> tuple[list[Turn], int]:
        where = "tenant = ? AND user_id = ? AND session_id = ?"
        params: list[Any] = [tenant, user_id, session_id]
        if source is not None:
            where += " AND source = ?"
            params.append(source)
        total, rows = self._db.snapshot_rows(
            (self._sql.sql(f"SELECT COUNT(*) AS n FROM history WHERE {where}"), params),
            # The latest `limit` turns (the transcript's tail), handed back oldest first.
            (
                self._sql.sql(
                    f"SELECT * FROM history WHERE {where} ORDER BY seq IS NULL DESC, seq DESC, id DESC LIMIT ?"
                ),
                (*params, limit if limit > 0 else self._sql.no_limit),
            ),
        )
        return [self._turn(row) for row in reversed(rows)], int(total[0]["n"])

    def ids(
        self,
        tenant: str,
        user_id: str,
        *,
        session_id: str | None,
        ids: Sequence[int] | None,
        source: str | None,
    ) -> list[int]:
        scope = self._sql.scope(tenant, user_id, {"session_id": session_id, "source": source}, ("id", ids))
        return self._ids_in("history", scope)

    def delete(self, tenant: str, user_id: str, ids: Sequence[int]) -> list[int]:
        return self._db.delete_rows("history", tenant, user_id, ids)


# ---- state ------------------------------------------------------------------------------------
class BaseState(_Part):
    """Framework state records (agno's memories, sessions). An engine adds ``put`` (its upsert)."""

    def _state(self, row: Row, *, with_vector: bool = False) -> StateRow:
        return state_of(row, self._db.time, with_vector=with_vector)

    def _scope(
        self, tenant: str, user_id: str, source: str, prefix: Sequence[str] | None
    ) -> tuple[str, list[Any]]:
        """The WHERE clause (and its parameters) of one user's rows of ``source`` under ``prefix``."""
        where = "tenant = ? AND user_id = ? AND source = ?"
        params: list[Any] = [tenant, user_id, source]
        if prefix:
            test, more = self._sql.under(ns_path(prefix))
            where += f" AND {test}"
            params += more
        return self._sql.sql(where), params

    def get(
        self, tenant: str, user_id: str, source: str, namespace: Sequence[str], key: str
    ) -> StateRow | None:
        rows = self._db.rows(
            self._sql.sql(
                f"SELECT {STATE_COLUMNS} FROM state WHERE tenant = ? AND user_id = ? AND source = ?"
                " AND ns_path = ? AND key = ?"
            ),
            (tenant, user_id, source, ns_path(namespace), key),
        )
        return self._state(rows[0]) if rows else None

    def put(self, tenant: str, user_id: str, record: NewState) -> tuple[StateRow, bool]:
        raise NotImplementedError

    def rows(
        self,
        tenant: str,
        user_id: str,
        *,
        source: str,
        prefix: Sequence[str] | None,
        with_vectors: bool = False,
    ) -> list[StateRow]:
        where, params = self._scope(tenant, user_id, source, prefix)
        columns = STATE_COLUMNS + (", vector" if with_vectors else "")
        rows = self._db.rows(
            f"SELECT {columns} FROM state WHERE {where} ORDER BY updated_at DESC, id DESC", params
        )
        return [self._state(row, with_vector=with_vectors) for row in rows]

    def namespaces(
        self, tenant: str, user_id: str, *, source: str, prefix: Sequence[str] | None
    ) -> list[list[str]]:
        where, params = self._scope(tenant, user_id, source, prefix)
        rows = self._db.rows(f"SELECT DISTINCT ns_path, namespace FROM state WHERE {where}", params)
        return sorted(json.loads(row["namespace"]) for row in rows)

    def ids(
        self, tenant: str, user_id: str, source: str, namespace: Sequence[str], keys: Sequence[str] | None
    ) -> list[int]:
        scope = self._sql.scope(
            tenant, user_id, {"source": source, "ns_path": ns_path(namespace)}, ("key", keys)
        )
        return self._ids_in("state", scope)

    def delete(self, tenant: str, user_id: str, ids: Sequence[int]) -> list[int]:
        return self._db.delete_rows("state", tenant, user_id, ids)


# ---- receipts and settings ----------------------------------------------------------------------
class BaseReceipts(_Part):
    """Replay receipts and client refs. An engine adds ``claim_turn`` (its conditional upsert)."""

    def client_ref(self, tenant: str, user_id: str, ref: str) -> list[int] | None:
        rows = self._db.rows(
            self._sql.sql("SELECT memory_ids FROM client_refs WHERE tenant = ? AND user_id = ? AND ref = ?"),
            (tenant, user_id, ref),
        )
        return json.loads(rows[0]["memory_ids"]) if rows else None

    def record_client_ref(self, tenant: str, user_id: str, ref: str, ids: Sequence[int]) -> list[int]:
        def work() -> list[int]:
            self._db.run(
                self._sql.sql(
                    "INSERT INTO client_refs (tenant, user_id, ref, memory_ids, created_at) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (tenant, user_id, ref) DO NOTHING"
                ),
                (tenant, user_id, ref, dump(list(ids)), self._db.stamp()),
            )
            stored = self.client_ref(tenant, user_id, ref)
            return list(ids) if stored is None else stored

        return self._db.atomic(work)


class Settings(_Part):
    """Server-wide named values (e.g. the embedding model the vectors were made with)."""

    def get(self, name: str) -> str | None:
        rows = self._db.rows(self._sql.sql("SELECT value FROM settings WHERE name = ?"), (name,))
        return rows[0]["value"] if rows else None

    def put(self, name: str, value: str) -> None:
        self._db.run(
            self._sql.sql(
                "INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at"
            ),
            (name, value, self._db.stamp()),
        )


# ---- the whole ----------------------------------------------------------------------------------
class BaseStorage:
    """:class:`~.interfaces.Storage`'s unit of work and listeners over an engine's ``_db``."""

    clock: Clock
    _db: Statements

    def transaction(self) -> Any:
        return self._db.transaction()

    def atomic(self, work: Callable[[], T]) -> T:
        return self._db.atomic(work)

    def now(self) -> datetime:
        return self.clock()

    def on_facts_changed(self, listener: FactsListener) -> None:
        self._db.listeners.append(listener)

    def close(self) -> None:
        self._db.close()
