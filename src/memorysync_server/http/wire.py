"""The wire forms of what storage returns as plain values: ``m_<n>``, ``h_<n>``, ISO-8601 UTC."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone
from typing import Any

from ..domain import Fact, StateRow, Turn

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


_MOMENT = re.compile(r"(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})")


def moment(text: str) -> datetime:
    """An RFC 3339 date-time (already checked by openapi.yaml) as an aware UTC datetime; moments
    beyond what a datetime holds in UTC are clamped to its range."""
    m = _MOMENT.fullmatch(text)
    assert m is not None, text
    zone = "+00:00" if m[4] in "Zz" else m[4]
    parsed = datetime.fromisoformat(f"{m[1]}T{m[2]}.{(m[3] or '').ljust(6, '0')[:6]}{zone}")
    try:
        return parsed.astimezone(timezone.utc)
    except OverflowError:
        edge = datetime.min if parsed.year == 1 else datetime.max
        return edge.replace(tzinfo=timezone.utc)


def export_user_number(tenant: str, user: str) -> int:
    """A stable positive number for (tenant, end user): the export's integer ``user_id``."""
    digest = hashlib.blake2b(f"{tenant}\0{user}".encode(), digest_size=8).digest()
    return (int.from_bytes(digest[:7], "big") >> 4) or 1
