"""The wire forms of what storage returns as plain values: ``m_<n>``, ``h_<n>``, ISO-8601 UTC."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from .storage import Fact, StateRow, Turn

# Ids are signed 64-bit integers in every engine: a larger number names nothing that could be stored.
INT64_MAX = 2**63 - 1


def timestamp(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def memory_id(number: int) -> str:
    return f"m_{number}"


def row_id(number: int) -> str:
    return f"h_{number}"


def id_number(value: str | int) -> int | None:
    """The number in a client's ``m_<n>``/``h_<n>`` (or a bare int); None when out of range.
    (openapi.yaml's patterns have already checked the form.)"""
    number = value if isinstance(value, int) else int(value[2:])
    return number if 0 <= number <= INT64_MAX else None


def fact(f: Fact) -> dict[str, Any]:
    return {
        "id": f.id,
        "memory_id": memory_id(f.id),
        "text": f.text,
        "source": f.source,
        "metadata": f.metadata,
        "created_at": timestamp(f.created_at),
    }


def memory(f: Fact, score: float | None = None) -> dict[str, Any]:
    """The ``Memory`` object of the legacy /memory/* routes (no summaries are made locally)."""
    out = {
        "id": f.id,
        "text": f.text,
        "summary": None,
        "tags": f.tags,
        "source": f.source,
        "event_type": f.event_type,
        "importance": f.importance,
        "metadata": f.metadata,
        "is_summary": False,
        "created_at": timestamp(f.created_at),
        "updated_at": timestamp(f.updated_at or f.created_at),
    }
    if score is not None:
        out["score"] = score
    return out


def turn(t: Turn) -> dict[str, Any]:
    return {
        "id": row_id(t.id),
        "session_id": t.session_id,
        "role": t.role,
        "content": t.content,
        "seq": t.seq,
        "occurred_at": t.occurred_at,
        "payload": t.payload,
        "source": t.source,
        "created_at": timestamp(t.created_at),
    }


def state_item(row: StateRow) -> dict[str, Any]:
    return {
        "id": row_id(row.id),
        "namespace": row.namespace,
        "key": row.key,
        "value": row.value,
        "text": row.text,
        "source": row.source,
        "created_at": timestamp(row.created_at),
        "updated_at": timestamp(row.updated_at),
    }
