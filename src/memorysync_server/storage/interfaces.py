"""What the server needs from a database, engine-neutral.

Every method takes the (tenant, user) it acts for and never reads, changes or deletes another
user's rows. Ids are plain ints and times are aware UTC datetimes: the ``m_<n>``/``h_<n>`` and
ISO-8601 forms of the wire belong to the handlers. Vectors are float32 rows of any width.

Writes run inside :meth:`Storage.transaction` (a call outside one is its own transaction).
Expensive work — extraction, embedding, JSON encoding — happens before the transaction opens,
so a unit of work only writes and holds the engine's lock for as little as possible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..domain import (
    Clock,
    Fact,
    FactFilter,
    FactsListener,
    Feedback,
    Forgotten,
    IndexRows,
    NewFact,
    NewState,
    NewTurn,
    Revision,
    StateRow,
    Turn,
    UserDetail,
    UserSummary,
)

if TYPE_CHECKING:  # in annotations only: `from memorysync_server.storage import is_postgres` stays light
    import numpy as np

T = TypeVar("T")


# ---- the parts ---------------------------------------------------------------------------------
class FactStore(Protocol):
    def add(self, tenant: str, user_id: str, facts: Sequence[NewFact]) -> list[int]:
        """Insert the facts whose text the user does not hold yet (each text once per user,
        even under concurrent writers); the new ids, in order."""
        ...

    def find_by_text(self, tenant: str, user_id: str, text: str) -> Fact | None: ...

    def find_texts(self, tenant: str, user_id: str, texts: Sequence[str]) -> dict[str, Fact]:
        """Of ``texts``, those the user holds as a fact, each with the (oldest) fact holding it:
        ``find_by_text`` of several texts in one read."""
        ...

    def get(self, tenant: str, user_id: str, ids: Iterable[int]) -> list[Fact]:
        """The facts among ``ids`` that exist, in the order asked."""
        ...

    def lock(self, tenant: str, user_id: str, ids: Iterable[int]) -> list[Fact]:
        """The facts among ``ids`` that exist, ascending by id, each locked against every other
        change until the caller's unit of work ends (inside a transaction only). A
        read-modify-write reads through this, so no concurrent change slips between its read and
        its write; every writer locks facts in ascending id order before anything else, so two
        units of work never wait on each other in a cycle."""
        ...

    def page(
        self, tenant: str, user_id: str, limit: int, offset: int, *, kept_turns: bool = False
    ) -> tuple[list[Fact], int]:
        """Newest first; ``limit`` 0 means all. Returns (page, total). A person's kept turns
        (event type KEPT_TURN) are memories of their own kind: listed only with ``kept_turns``."""
        ...

    def vectors(self, tenant: str, user_id: str, *, dim: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(ids ascending as int64, float32 matrix with one row per id) of the user's facts; with
        ``dim``, only the facts whose stored vector is ``dim`` wide."""
        ...

    def index_rows(self, tenant: str, user_id: str, dim: int) -> IndexRows:
        """What a search index of the user's facts holds, read in one statement (``IndexRows``):
        the facts whose vector is ``dim`` wide with their vectors and ``TurnMark``s (a search
        groups a kept turn with the facts distilled from it before decoding any), the superseded
        facts (``metadata.superseded_by``), the importances ever set, and the ids of the facts
        whose vector has another width (none yet, or another embedder's)."""
        ...

    def replace_vectors(self, tenant: str, user_id: str, vectors: Sequence[tuple[int, np.ndarray]]) -> None:
        """New vectors for existing facts (same texts, another embedder, or none yet). Only facts
        whose stored vector has another width change, so two writers giving a fact the same
        vector change it once; those are announced as added (ids ascending, with their vectors)."""
        ...

    def unembedded(self, limit: int) -> list[tuple[str, str, int]]:
        """(tenant, user, id) of facts of any user stored without a vector (an empty one, to be
        embedded after the write answered), oldest first."""
        ...

    def set_superseded(self, tenant: str, user_id: str, changes: dict[int, int | None]) -> None:
        """Set ``metadata.superseded_by = "m_<id>"`` on facts, or remove it (None); rows stay.
        Each fact that changes gets a revision (``superseded``, or ``updated`` when cleared)."""
        ...

    def update(
        self, tenant: str, user_id: str, fact_id: int, fields: dict[str, Any], *, actor: str | None
    ) -> tuple[Fact, list[str]] | None:
        """Set some of EDITABLE_FIELDS on one fact (``metadata`` replaces the stored object);
        records an ``updated`` revision when a value changed. (the fact after, the fields that
        changed), or None when the user has no such fact. Joins the caller's transaction."""
        ...

    def revisions(
        self, tenant: str, user_id: str, fact_id: int, limit: int, offset: int
    ) -> tuple[list[Revision], int]:
        """A fact's revisions, oldest first (revision 0 is ``created``), and how many there are."""
        ...

    def select(self, tenant: str, user_id: str, where: FactFilter) -> list[int]:
        """Ids (ascending) of the user's facts matching ``where`` (which must not be empty)."""
        ...

    def event_types(self, tenant: str) -> set[str]:
        """Every event type a fact of this tenant carries."""
        ...

    def add_feedback(self, tenant: str, user_id: str, fact_id: int, signal: str, comment: str | None) -> None:
        """Record one feedback signal on a fact (inside the caller's transaction)."""
        ...

    def feedback(self, tenant: str, user_id: str, fact_id: int) -> list[Feedback]:
        """The signals given on a fact, oldest first."""
        ...

    def delete(self, tenant: str, user_id: str, ids: Iterable[int], *, dry_run: bool = False) -> list[int]:
        """Delete the user's facts among ``ids`` (with their revisions and feedback); the ids
        that existed, ascending."""
        ...

    def derived(self, tenant: str, user_id: str, kind: str, origin_ids: Iterable[int]) -> list[int]:
        """Ids of the facts extracted from these history turns / state rows."""
        ...

    def count(self, tenant: str) -> int: ...


# What the lexical index stores of a fact's text (``language.scripts.indexed_text``: its terms,
# space-separated), given to an engine by whoever opens it; the identity by default.
LexicalForm = Callable[[str], str]


def as_written(text: str) -> str:
    return text


class LexicalIndex(Protocol):
    """Full-text matching over facts. Corpus statistics are per tenant: one tenant's data never
    changes how another tenant's facts rank."""

    def document_frequencies(self, tenant: str, terms: Sequence[str]) -> dict[str, int]:
        """How many of the tenant's facts contain each exact (lower-cased) word."""
        ...

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
        """(fact id, relevance) of the user's facts holding any term, best first; relevance > 0.
        With ``prefix``, a term ending in ``*`` matches every word it begins. ``user_facts``
        (how many facts the user holds, when the caller knows) lets an engine choose its plan;
        it never changes the answer."""
        ...


class TurnStore(Protocol):
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
        """The stored turn this one repeats: same idempotency key, else same (seq, role, content)."""
        ...

    def add(self, tenant: str, user_id: str, turn: NewTurn) -> tuple[Turn, bool]:
        """Store the turn unless it repeats a stored one (see :meth:`find`, also under concurrent
        writers); (the stored turn, created)."""
        ...

    def page(
        self, tenant: str, user_id: str, session_id: str, source: str | None, limit: int
    ) -> tuple[list[Turn], int]:
        """In seq order (turns without seq last, then by id); with ``limit`` > 0 only the last
        ``limit`` of that order (the latest turns), still oldest first; 0 means all."""
        ...

    def ids(
        self,
        tenant: str,
        user_id: str,
        *,
        session_id: str | None,
        ids: Sequence[int] | None,
        source: str | None,
    ) -> list[int]: ...

    def delete(self, tenant: str, user_id: str, ids: Sequence[int]) -> list[int]:
        """Delete the user's turns among ``ids``; the ids that existed, ascending."""
        ...


class StateStore(Protocol):
    def get(
        self, tenant: str, user_id: str, source: str, namespace: Sequence[str], key: str
    ) -> StateRow | None: ...

    def put(self, tenant: str, user_id: str, record: NewState) -> tuple[StateRow, bool]:
        """Insert or replace one record; (row, created)."""
        ...

    def rows(
        self,
        tenant: str,
        user_id: str,
        *,
        source: str,
        prefix: Sequence[str] | None,
        with_vectors: bool = False,
    ) -> list[StateRow]:
        """Every record under ``prefix`` (segment-wise), most recently updated first."""
        ...

    def namespaces(
        self, tenant: str, user_id: str, *, source: str, prefix: Sequence[str] | None
    ) -> list[list[str]]:
        """The distinct namespaces holding at least one record under ``prefix`` (segment-wise),
        sorted segment by segment."""
        ...

    def ids(
        self, tenant: str, user_id: str, source: str, namespace: Sequence[str], keys: Sequence[str] | None
    ) -> list[int]: ...

    def delete(self, tenant: str, user_id: str, ids: Sequence[int]) -> list[int]:
        """Delete the user's records among ``ids``; the ids that existed, ascending."""
        ...


class ReceiptStore(Protocol):
    """Replay receipts (one per turn digest) and ``client_ref`` receipts of /memory/add."""

    def claim_turn(self, tenant: str, user_id: str, digest: str, *, since: datetime) -> bool:
        """True (and the receipt is stamped now) unless this digest was seen at or after ``since``."""
        ...

    def client_ref(self, tenant: str, user_id: str, ref: str) -> list[int] | None: ...

    def record_client_ref(self, tenant: str, user_id: str, ref: str, ids: Sequence[int]) -> list[int]:
        """Remember ``ids`` for ``ref``; if the ref is already recorded, keep and return the first ids."""
        ...


class SettingStore(Protocol):
    """Named server settings kept with the data (e.g. a development API key); not tenant data."""

    def get(self, name: str) -> str | None: ...

    def put(self, name: str, value: str) -> None: ...


class DirectoryStore(Protocol):
    """What exists for a tenant, for browsing it (the local inspector): the API reads rows of one
    known user, session or namespace, and no route lists those. Scoped like every other part."""

    def users(self, tenant: str, limit: int, offset: int) -> tuple[list[UserSummary], int]:
        """The tenant's users, most recently active first, and how many there are."""
        ...

    def user(self, tenant: str, user_id: str) -> UserDetail: ...

    def forget_user(self, tenant: str, user_id: str) -> Forgotten:
        """Everything stored for one user, in one unit of work: facts, turns, state, receipts."""
        ...


class Storage(Protocol):
    """One database: its parts, the unit of work, and change notifications for caches."""

    # Read-only members: an engine's own parts (SqliteFacts, ...) satisfy them, where a plain
    # protocol attribute would demand exactly FactStore (attributes are invariant).
    @property
    def clock(self) -> Clock: ...
    @property
    def facts(self) -> FactStore: ...
    @property
    def lexical(self) -> LexicalIndex: ...
    @property
    def turns(self) -> TurnStore: ...
    @property
    def state(self) -> StateStore: ...
    @property
    def receipts(self) -> ReceiptStore: ...
    @property
    def settings(self) -> SettingStore: ...
    @property
    def directory(self) -> DirectoryStore: ...

    def transaction(self) -> AbstractContextManager[None]:
        """One atomic unit; nested calls join the outer one."""
        ...

    def atomic(self, work: Callable[[], T]) -> T:
        """``work()`` as one unit of work, run again (a few times, after a short pause) when the
        engine aborts it with :class:`StorageConflict`; inside a unit of work it joins that one
        (whose own ``atomic`` retries). ``work`` must do nothing but storage calls and computing
        from what they return, as it may run more than once."""
        ...

    def now(self) -> datetime: ...

    def on_facts_changed(self, listener: FactsListener) -> None:
        """``listener(change)`` after each committed change to a user's facts."""
        ...

    def sync_facts(self, tenant: str, user_id: str) -> None:
        """Announce to the listeners any change to this user's facts committed by another
        process since this one last looked (a no-op for an engine only one process opens)."""
        ...

    def close(self) -> None: ...


__all__ = [
    "DirectoryStore",
    "FactStore",
    "LexicalIndex",
    "ReceiptStore",
    "SettingStore",
    "StateStore",
    "Storage",
    "TurnStore",
]
