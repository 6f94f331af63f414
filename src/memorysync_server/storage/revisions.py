"""What a fact's revisions record, computed the same way by every engine."""

from __future__ import annotations

from typing import Any

from ..domain import EDITABLE_FIELDS, Fact, NewFact, Revision


def current(fact: Fact, name: str) -> Any:
    if name == "superseded_by":
        return fact.metadata.get("superseded_by")
    return getattr(fact, name)


def changes(before: Fact, fields: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """(changed fields in EDITABLE_FIELDS order, diff) of setting ``fields`` on ``before``."""
    changed = [name for name in EDITABLE_FIELDS if name in fields and fields[name] != current(before, name)]
    return changed, {name: {"before": current(before, name), "after": fields[name]} for name in changed}


def created(fact: NewFact) -> tuple[list[str], dict[str, Any]]:
    """(fields given a value, diff from nothing) of a new fact's ``created`` revision."""
    values = {
        "tags": fact.tags,
        "importance": fact.importance,
        "metadata": fact.metadata,
        "source": fact.source,
        "event_type": fact.event_type,
    }
    given = [name for name in EDITABLE_FIELDS if values[name] not in (None, [], {})]
    return given, {name: {"before": None, "after": values[name]} for name in given}


def superseded(before: Fact, by: int | None) -> tuple[str, list[str], dict[str, Any]] | None:
    """(event, changed fields, diff) of marking ``before`` superseded by fact ``by`` (None:
    clearing the mark), or None when nothing changes."""
    after = None if by is None else f"m_{by}"
    was = before.metadata.get("superseded_by")
    if was == after:
        return None
    event = "superseded" if after is not None else "updated"
    return event, ["superseded_by"], {"superseded_by": {"before": was, "after": after}}


def with_created(rows: list[Revision], fact: Fact) -> list[Revision]:
    """``rows`` led by revision 0: facts an older release wrote have no stored ``created``
    revision, so it is synthesised from the fact's ``created_at``."""
    if rows and rows[0].revision == 0:
        return rows
    return [Revision(0, "created", [], {}, None, fact.created_at), *rows]
