"""The records the server works with: facts, turns, state rows, their revisions and filters.

Plain frozen values shared by every layer: HTTP encodes them, services and retrieval compute on
them, storage reads and writes them. Ids are plain ints and times are aware UTC datetimes; the
``m_<n>``/``h_<n>`` and ISO-8601 forms of the wire belong to HTTP.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # in annotations only: importing the records stays light (no numpy)
    import numpy as np

# What a derived fact came from: ("history", turn id) or ("state", state row id).
Origin = tuple[str, int]


def encode_json(value: Any) -> str:
    """The stored form of free-form JSON (state values, payloads, metadata); deterministic."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class Fact:
    id: int
    text: str
    source: str
    metadata: dict[str, Any]
    created_at: datetime
    tags: list[str] = field(default_factory=list)
    importance: float | None = None  # None: never set, ranks as neutral
    event_type: str = "fact"
    updated_at: datetime | None = None  # None only for rows an older release wrote

    @property
    def said_at(self) -> datetime:
        """When the memory was said: the turn's ``occurred_at`` the pipeline recorded, else its creation."""
        return read_time(self.metadata.get("occurred_at")) or self.created_at


@dataclass(frozen=True)
class NewFact:
    """A fact ready to write: its vector is computed before the transaction opens."""

    text: str
    source: str
    metadata: dict[str, Any]
    vector: np.ndarray
    origin: Origin | None = None
    tags: list[str] = field(default_factory=list)
    importance: float | None = None
    event_type: str = "fact"
    actor: str | None = None  # who asked for it, for its "created" revision (None: the server)


# The event type of a turn kept as a memory beside the facts distilled from it.
KEPT_TURN = "conversation"
# The metadata key of a kept turn holding the listener's question it answers: read by its vector.
ASKED = "asked"
# The metadata key of a fact holding the words of the turn it was read from, when the turn told
# more than the fact: read by its vector and its lexical terms (services/pipeline.said_in).
SAID_IN = "said_in"


def read_with(metadata: dict[str, Any]) -> str | None:
    """The words a memory is searched after, besides its own: the question a kept turn answers
    (``metadata.asked``), or the turn a fact was read from (``metadata.said_in``)."""
    for key in (ASKED, SAID_IN):
        words = metadata.get(key)
        if isinstance(words, str) and words:
            return words
    return None


def searched_by(text: str, metadata: dict[str, Any]) -> str:
    """What a memory is searched by, lexically and by its vector: its text, after the words it is
    read with (``read_with``). Shown as written."""
    words = read_with(metadata)
    return f"{words} {text}" if words else text


# The fields of a fact that an update may change (text and vectors never change).
EDITABLE_FIELDS = ("tags", "importance", "metadata", "source", "event_type")


# What a fact's revision history records changes of.
TRACKED_FIELDS = (*EDITABLE_FIELDS, "superseded_by")


@dataclass(frozen=True)
class Revision:
    """One recorded change of a fact: ``event`` is created, updated or superseded; ``diff`` maps
    each changed field to ``{"before": ..., "after": ...}``; ``actor`` None means the server."""

    revision: int
    event: str
    changed_fields: list[str]
    diff: dict[str, Any]
    actor: str | None
    created_at: datetime


@dataclass(frozen=True)
class FactFilter:
    """Selects a user's facts: every given criterion must hold (``tags``: all of them);
    ``before``/``after`` compare ``created_at``, exclusive."""

    source: str | None = None
    event_type: str | None = None
    tags: tuple[str, ...] = ()
    before: datetime | None = None
    after: datetime | None = None

    @property
    def empty(self) -> bool:
        return not (self.source or self.event_type or self.tags or self.before or self.after)


@dataclass(frozen=True)
class Feedback:
    """One feedback signal given on a fact."""

    signal: str
    created_at: datetime


@dataclass(frozen=True)
class Turn:
    id: int
    session_id: str
    role: str
    content: str
    seq: int | None
    occurred_at: str | None  # as the client sent it
    payload: Any
    source: str
    created_at: datetime


@dataclass(frozen=True)
class NewTurn:
    session_id: str
    source: str
    role: str
    content: str
    seq: int | None
    occurred_at: str | None
    idem_key: str | None
    payload: Any = None
    has_payload: bool = False
    # Encoded when this is built (outside any lock); None when the turn has no payload at all.
    payload_json: str | None = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "payload_json", json.dumps(self.payload) if self.has_payload else None)


@dataclass(frozen=True)
class StateRow:
    id: int
    namespace: list[str]
    key: str
    value: Any
    text: str
    source: str
    created_at: datetime
    updated_at: datetime
    indexed: bool = False
    vector: np.ndarray | None = field(default=None, compare=False)


@dataclass(frozen=True)
class NewState:
    """A state record ready to write; ``value_json`` is encoded when this is built (outside any lock)."""

    source: str
    namespace: list[str]
    key: str
    value: Any
    text: str
    indexed: bool
    vector: np.ndarray | None
    value_json: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value_json", encode_json(self.value))


# (event type, ``metadata.distilled_from``, ``said_day``) of a fact: which turn it came from and
# on which day, read without decoding the fact (retrieval/turns.py turn_id, ranking.said_then).
TurnMark = tuple[str, Any, int]


def read_time(value: Any) -> datetime | None:
    """An ISO 8601 time as clients write it ("2023-05-08T10:00:00Z", "2023-05-08"; a zone-less
    one is UTC), or None when ``value`` is not one."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def said_day(occurred_at: Any, created_at: datetime | str | None) -> int:
    """The day a memory was said, as a date ordinal (0 when neither value reads as a time): the
    date its ``metadata.occurred_at`` names as written, which is the day its recall line shows,
    else the day it was stored."""
    for value in (occurred_at, created_at):
        if isinstance(value, datetime):
            return value.date().toordinal()
        if isinstance(value, str):
            try:
                return date.fromisoformat(value.strip()[:10]).toordinal()
            except ValueError:
                continue
    return 0


@dataclass(frozen=True)
class IndexRows:
    """One user's facts as a search index holds them, read at once: the facts whose stored vector
    is the embedder's width (``ids`` ascending, ``matrix`` one row each, each one's ``TurnMark``),
    which facts are superseded by which (old id -> newer id), the importances ever set, and the
    ids of the facts whose vector has another width (``other_vectors``: none yet, or another
    embedder's), which the backfill gives vectors of this width."""

    ids: np.ndarray
    matrix: np.ndarray
    marks: list[TurnMark]
    superseded: dict[int, int]
    importance: dict[int, float]
    other_vectors: list[int]


@dataclass(frozen=True)
class FactsChange:
    """What changed in one user's facts: rows added (ids ascending, with their vectors), removed,
    newly superseded (old id -> id of the fact superseding it, None when cleared), edited in place
    (``FactStore.update``: any of EDITABLE_FIELDS) and/or given an importance. None given means
    "unknown": drop whatever is cached for this user. ``added_marks`` gives each added row's
    ``TurnMark`` when the writer knows it (search groups a turn with its facts from it)."""

    tenant: str
    user_id: str
    added_ids: list[int] | None = None
    added_vectors: np.ndarray | None = None
    added_marks: list[TurnMark] | None = None
    removed_ids: list[int] | None = None
    superseded: dict[int, int | None] | None = None
    importance: dict[int, float | None] | None = None
    edited_ids: list[int] | None = None

    @property
    def unknown(self) -> bool:
        return (
            self.added_ids is None
            and self.removed_ids is None
            and self.superseded is None
            and self.importance is None
            and self.edited_ids is None
        )


FactsListener = Callable[[FactsChange], None]


@dataclass(frozen=True)
class UserSummary:
    user_id: str
    memories: int
    turns: int
    state_items: int
    last_activity: datetime | None


@dataclass(frozen=True)
class SessionSummary:
    session_id: str
    turns: int
    sources: list[str]
    first_at: datetime
    last_at: datetime
    last_id: int


@dataclass(frozen=True)
class NamespaceSummary:
    source: str
    namespace: list[str]
    items: int
    updated_at: datetime


@dataclass(frozen=True)
class UserDetail:
    memories: int
    last_fact_id: int | None
    sessions: list[SessionSummary]
    state: list[NamespaceSummary]


@dataclass(frozen=True)
class Forgotten:
    memories: int
    turns: int
    state_items: int


__all__ = [
    "EDITABLE_FIELDS",
    "KEPT_TURN",
    "TRACKED_FIELDS",
    "Fact",
    "FactFilter",
    "FactsChange",
    "FactsListener",
    "Feedback",
    "Forgotten",
    "IndexRows",
    "NamespaceSummary",
    "NewFact",
    "NewState",
    "NewTurn",
    "Origin",
    "Revision",
    "SessionSummary",
    "StateRow",
    "Turn",
    "TurnMark",
    "UserDetail",
    "UserSummary",
    "encode_json",
    "read_time",
    "said_day",
]
