"""One agno ``UserMemory`` <-> one MemorySync state record.

The value holds every ``UserMemory`` field with timestamps as epoch seconds. ``to_dict()`` is
deliberately not used: it writes naive local-time ISO strings that ``from_dict()`` reads back as
UTC, shifting every timestamp by the machine's UTC offset (agno/db/schemas/memory.py).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

from agno.db.schemas.memory import UserMemory

from memorysync_core import prepare_text

NAMESPACE: list[str] = ["agno"]
# Read from the installed agno so a field added by a later release is stored, not dropped.
FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(UserMemory))
TIMESTAMPS = ("created_at", "updated_at")
# Stored next to the UserMemory fields, never shown to agno: when the memory was first written,
# in nanoseconds, so memories written in the same second (or side by side in one batch) are read
# back in the order they were written.
INSERTED = "inserted_ns"
_SCOPE_KEYS = ("agent_id", "team_id")


def epoch_seconds(value: Any) -> int | None:
    """agno's own normalisation: ints/floats are seconds, naive datetimes and ISO strings are UTC."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise TypeError(f"a timestamp must be epoch seconds, a datetime or an ISO string, got {value!r}")
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        value = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    if isinstance(value, datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)
        return int(aware.timestamp())
    raise TypeError(f"a timestamp must be epoch seconds, a datetime or an ISO string, got {value!r}")


def to_value(memory: UserMemory) -> dict[str, Any]:
    """The JSON object stored for ``memory``: every field, ``None`` included."""
    value: dict[str, Any] = {}
    for name in FIELDS:
        field = getattr(memory, name)
        if name in TIMESTAMPS:
            field = epoch_seconds(field)
        elif isinstance(field, (tuple, set, frozenset)):
            field = list(field)
        value[name] = field
    try:
        json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"UserMemory {memory.memory_id!r} has a field that is not JSON-serialisable ({exc}); "
            "memory, topics, input and feedback must be strings (topics a list of strings)."
        ) from exc
    return value


def from_value(value: Mapping[str, Any]) -> UserMemory:
    """Rebuild the ``UserMemory``; keys this agno does not know (a newer writer's) are ignored."""
    return UserMemory(**{name: value[name] for name in FIELDS if name in value})


def as_row(value: Mapping[str, Any]) -> dict[str, Any]:
    """The ``deserialize=False`` shape: agno's SQL backends return the raw row, epoch ints included."""
    return {name: value.get(name) for name in FIELDS}


def memory_text(value: Mapping[str, Any]) -> str:
    """What is embedded and extracted: the memory text, trimmed and cut to 16,000 characters."""
    memory = value.get("memory")
    return prepare_text(memory if isinstance(memory, str) else json.dumps(memory, ensure_ascii=False))


def fact_metadata(value: Mapping[str, Any]) -> dict[str, Any]:
    """Scalars copied onto the fact this memory is for every reader (AG2's recall, the SDK's
    list, the export): who wrote it, agno's memory id and its topics (comma-separated: a fact's
    metadata holds scalars)."""
    out = {key: value[key] for key in _SCOPE_KEYS if value.get(key) is not None}
    if isinstance(value.get("memory_id"), str):
        out["agno_memory_id"] = value["memory_id"]
    topics = value.get("topics")
    if isinstance(topics, list) and topics:
        out["topics"] = ", ".join(str(topic) for topic in topics)
    return out


def same_content(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Equal apart from ``updated_at``: a re-upsert of such a memory must not look like a change."""
    return all(a.get(name) == b.get(name) for name in FIELDS if name != "updated_at")


# Marks a memory read from a fact (not an agno record): an update re-homes it as a record.
FROM_FACT = "from_fact"
_FACT_ID = re.compile(r"m_[0-9]+")
# Facts that are agno records themselves, or kept turns (never listed as a person's facts).
_NOT_SHOWN = ("state-", "turn")


def is_fact_id(memory_id: str) -> bool:
    """Whether ``memory_id`` names a fact (``m_<n>``) rather than an agno record."""
    return _FACT_ID.fullmatch(memory_id) is not None


def fact_value(
    memory_id: str, text: str, metadata: Mapping[str, Any], created_at: datetime, user: str
) -> dict[str, Any] | None:
    """A fact made outside agno (from an AG2 turn, saved through the SDK) as an agno memory
    value; None for a fact that is an agno record's own or a kept turn."""
    origin = metadata.get("write_origin")
    if isinstance(origin, str) and (origin.startswith(_NOT_SHOWN[0]) or origin == _NOT_SHOWN[1]):
        return None
    aware = created_at if created_at.tzinfo is not None else created_at.replace(tzinfo=timezone.utc)
    seconds = int(aware.timestamp())
    value: dict[str, Any] = {name: None for name in FIELDS}
    value.update(
        memory_id=memory_id, memory=text, topics=[], user_id=user, created_at=seconds, updated_at=seconds
    )
    value[INSERTED] = int(aware.timestamp() * 1e9)
    value[FROM_FACT] = True
    return value
