"""Choosing rows the way agno's own backends do: filters, substring match, sort, 1-based pages.

The server filters by user, namespace and source only; every agno-level filter runs here, on
the values of one user's records, so the semantics match agno's SQL backends exactly.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, TypeVar

from .records import FIELDS

logger = logging.getLogger("agno_memorysync")
T = TypeVar("T")


def check_page(limit: Any, page: Any) -> None:
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ValueError(f"limit must be a positive integer, or None for all rows; got {limit!r}")
    if page is not None:
        if limit is None:
            raise ValueError("page was given without limit: pass both to paginate, or neither for all rows")
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise ValueError(f"page must be an integer >= 1 (pages are 1-based); got {page!r}")


def check_topics(topics: Any) -> list[str] | None:
    if topics is None:
        return None
    if isinstance(topics, str) or not all(isinstance(t, str) for t in topics):
        raise TypeError(f"topics must be a list of strings, got {topics!r}")
    return list(topics)


def sort_direction(sort_order: Any) -> str:
    order = getattr(sort_order, "value", sort_order)  # AgentOS passes its SortOrder enum
    return "asc" if isinstance(order, str) and order.lower() == "asc" else "desc"


def contains(value: Mapping[str, Any], query: str) -> bool:
    return query.casefold() in str(value.get("memory") or "").casefold()


def matches(value: Mapping[str, Any], agent_id: Any, team_id: Any, topics: list[str] | None) -> bool:
    if agent_id is not None and value.get("agent_id") != agent_id:
        return False
    if team_id is not None and value.get("team_id") != team_id:
        return False
    # Every requested topic must be present, as in agno's SQL backends.
    return topics is None or set(topics) <= set(value.get("topics") or [])


def last_change(value: Mapping[str, Any]) -> Any:
    return value.get("updated_at") if value.get("updated_at") is not None else value.get("created_at")


def sort_rows(values: list[dict[str, Any]], sort_by: str | None, order: str) -> list[dict[str, Any]]:
    if sort_by is None:
        return values
    if sort_by not in FIELDS:
        logger.debug("get_user_memories: unknown sort field %r, not sorting", sort_by)
        return values

    def key(value: Mapping[str, Any]) -> Any:
        return last_change(value) if sort_by == "updated_at" else value.get(sort_by)

    present = [v for v in values if key(v) is not None]
    missing = [v for v in values if key(v) is None]
    try:
        present.sort(key=lambda v: (isinstance(key(v), str), key(v)), reverse=order == "desc")
    except TypeError:
        present.sort(key=lambda v: str(key(v)), reverse=order == "desc")
    return present + missing  # rows without the field last, in either order


def paginate(rows: list[T], limit: int | None, page: int | None) -> list[T]:
    if limit is None:
        return rows
    start = ((page or 1) - 1) * limit
    return rows[start : start + limit]
