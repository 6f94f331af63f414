"""What both engines share: stored rows to the interface's values, values to stored columns, and
the WHERE clauses the two SQL dialects write alike.

A row is any mapping of column names (``sqlite3.Row``, or psycopg's dict rows after the
PostgreSQL engine decoded its text); ``time`` turns a stored time into an aware datetime (SQLite
keeps ISO text, PostgreSQL ``timestamptz``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, Protocol

import numpy as np

from ..domain import Fact, IndexRows, Revision, StateRow, Turn, said_day
from . import revisions


class Row(Protocol):
    """A row read by either engine (a psycopg dict row, a sqlite3.Row): its columns by name."""

    def __getitem__(self, column: str) -> Any: ...


Time = Callable[[Any], datetime]

# The columns of a fact that make a Fact (vectors and postings stay in storage).
FACT_COLUMNS = "id, text, source, metadata, created_at, tags, importance, event_type, updated_at"
STATE_COLUMNS = "id, namespace, key, value, text, source, created_at, updated_at, indexed"
NS_SEP = "\x1f"


def ns_path(namespace: Iterable[str]) -> str:
    """A namespace as a string whose prefixes are exactly the segment-wise prefixes.

    Segments are escaped so that one holding the separator (``["a\x1fb"]``) can never be
    mistaken for two (``["a", "b"]``).
    """
    return "".join(segment.replace("%", "%25").replace(NS_SEP, "%1F") + NS_SEP for segment in namespace)


def dump(value: Any) -> str:
    """A JSON column's stored text (tags, metadata, revision fields)."""
    return json.dumps(value, ensure_ascii=False)


def blob(vector: np.ndarray | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, dtype=np.float32).tobytes()


def _json(text: str) -> Any:
    # Most facts have no tags: json.loads("[]") costs ~1.2 us, and a recall decodes 40 facts.
    return [] if text == "[]" else {} if text == "{}" else json.loads(text)


def fact(row: Row, time: Time) -> Fact:
    created, updated = row["created_at"], row["updated_at"]
    created_at = time(created)
    return Fact(
        id=int(row["id"]),
        text=row["text"],
        source=row["source"],
        metadata=_json(row["metadata"]),
        created_at=created_at,
        tags=_json(row["tags"]),
        importance=row["importance"],
        event_type=row["event_type"],
        # A fact never changed was updated when it was created: one parse (datetimes are immutable).
        updated_at=created_at if updated == created else time(updated) if updated else None,
    )


def turn(row: Row, time: Time) -> Turn:
    return Turn(
        id=int(row["id"]),
        session_id=row["session_id"],
        role=row["role"],
        content=row["content"],
        seq=row["seq"],
        occurred_at=row["occurred_at"],
        payload=None if row["payload"] is None else json.loads(row["payload"]),
        source=row["source"],
        created_at=time(row["created_at"]),
    )


def state(row: Row, time: Time, *, with_vector: bool = False) -> StateRow:
    vector = None
    if with_vector and row["vector"] is not None:
        vector = np.frombuffer(row["vector"], dtype=np.float32)
    return StateRow(
        id=int(row["id"]),
        namespace=json.loads(row["namespace"]),
        key=row["key"],
        value=json.loads(row["value"]),
        text=row["text"],
        source=row["source"],
        created_at=time(row["created_at"]),
        updated_at=time(row["updated_at"]),
        indexed=bool(row["indexed"]),
        vector=vector,
    )


def revision_page(
    stored: Sequence[Row], current: Fact, time: Time, limit: int, offset: int
) -> tuple[list[Revision], int]:
    """A fact's revisions (with its "created" one even where an older release stored none),
    ``limit`` (0: all) from ``offset``, and how many there are."""
    every = revisions.with_created(
        [
            Revision(
                revision=int(r["revision"]),
                event=r["event"],
                changed_fields=json.loads(r["changed_fields"]),
                diff=json.loads(r["diff"]),
                actor=r["actor"],
                created_at=time(r["created_at"]),
            )
            for r in stored
        ],
        current,
    )
    return every[offset : offset + limit if limit > 0 else None], len(every)


def id_matrix(rows: Sequence[Sequence[Any]]) -> tuple[np.ndarray, np.ndarray]:
    """(ids as int64, float32 matrix with one row per id) of ``(id, vector bytes)`` rows."""
    ids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
    if not rows:
        return ids, np.zeros((0, 0), dtype=np.float32)
    return ids, np.frombuffer(b"".join(row[1] for row in rows), dtype=np.float32).reshape(len(rows), -1)


def by_text(facts: Iterable[Fact]) -> dict[str, Fact]:
    """Each text's first fact of ``facts`` (read in id order: the oldest holding it)."""
    found: dict[str, Fact] = {}
    for one in facts:
        found.setdefault(one.text, one)
    return found


def index_rows(rows: Sequence[Sequence[Any]], dim: int) -> IndexRows:
    """``IndexRows`` of one user's ``(id, vector bytes, event type, metadata.distilled_from,
    metadata.occurred_at, created_at, metadata.superseded_by, importance)`` rows, ascending by id."""
    width = 4 * dim
    kept = [row for row in rows if len(row[1]) == width]
    ids, matrix = id_matrix(kept)
    return IndexRows(
        ids,
        matrix,
        [(row[2], row[3], said_day(row[4], row[5])) for row in kept],
        superseded={
            int(row[0]): int(row[6][2:])
            for row in rows
            if isinstance(row[6], str) and row[6].startswith("m_") and row[6][2:].isdigit()
        },
        importance={int(row[0]): float(row[7]) for row in rows if row[7] is not None},
        other_vectors=[int(row[0]) for row in rows if len(row[1]) != width],
    )
