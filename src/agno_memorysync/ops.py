"""Every memory operation, written once for the sync and the async db.

An operation is a plain generator: it yields the requests it needs (a generated operation and its
body, or ``TENANT`` for the tenant id) and receives each parsed answer, then returns the result.
It does no I/O and knows no event loop, so one async driver (:func:`drive`) serves both classes:
``MemorySyncDb`` runs it on the core's background loop with a total budget, ``AsyncMemorySyncDb``
awaits it under ``asyncio.wait_for``. Arguments are validated when the plan is built, before any
request, so bad input raises a ``ValueError``/``TypeError`` and is never mistaken for an outage.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from types import ModuleType
from typing import Any, Generic, TypeVar

from agno.db.schemas.memory import UserMemory
from memorysync_client.api.memory import forget_memories, list_memories, query_memories
from memorysync_client.api.state import (
    delete_state,
    get_state,
    list_state,
    put_state,
    put_state_many,
    search_state,
)
from memorysync_client.models import (
    DeleteStateRequest,
    DeleteStateResponse,
    ForgetByIds,
    GetStateRequest,
    GetStateResponse,
    ListStateRequest,
    MemoryList,
    Metadata,
    PutStateManyRequest,
    PutStateManyResponse,
    PutStateRequest,
    PutStateRequestValue,
    PutStateResponse,
    QueryRequest,
    QueryResponse,
    SearchStateRequest,
    StateItem,
    StateList,
)

from memorysync_core import Connection, MemorySyncError, acall

from .policy import Kind
from .records import (
    FROM_FACT,
    INSERTED,
    NAMESPACE,
    as_row,
    fact_metadata,
    fact_value,
    from_value,
    is_fact_id,
    memory_text,
    same_content,
    to_value,
)
from .selection import (
    check_page,
    check_topics,
    contains,
    last_change,
    matches,
    paginate,
    sort_direction,
    sort_rows,
)

logger = logging.getLogger("agno_memorysync")
T = TypeVar("T")

LIST_PAGE = 5000  # ListStateRequest.limit maximum in openapi.yaml
SEARCH_LIMIT = 100  # SearchStateRequest.limit maximum in openapi.yaml
DELETE_CHUNK = 1000  # DeleteStateRequest.keys maxItems in openapi.yaml
FORGET_CHUNK = 100  # ForgetByIds.memory_ids maxItems in openapi.yaml
MAX_QUERY_CHARS = 4000
MIN_SEARCH_CHARS = 3  # shorter search_content is a substring filter, as in agno's own backends
# Requests one batch keeps in flight: its reads (and its writes, where the server has no
# /v1/state/put_many) run side by side, bounding the wall time by about N / CONCURRENCY round
# trips instead of N, without one caller flooding the server.
CONCURRENCY = 8
MANY_CHUNK = 100  # PutStateManyRequest.items maxItems in openapi.yaml
MANY_TEXT_CHARS = 32_000  # PutStateManyRequest x-max-total-text-chars in openapi.yaml
# A batch with this many memories of one user reads that user's records in one list request
# (when they fit in one page) instead of one get per memory.
SNAPSHOT_MIN = 8


@dataclass(frozen=True)
class _Ready:
    """One memory's write, prepared: what the caller is told was stored, the record it replaces
    (None: new), and the put body (None: unchanged, nothing to send)."""

    merged: dict[str, Any]
    stored: dict[str, Any] | None
    body: PutStateRequest | None


def _chunk(ready: list[_Ready], at: int) -> list[_Ready]:
    """The writes from ``at`` that one /v1/state/put_many call takes: at most MANY_CHUNK, their
    texts at most MANY_TEXT_CHARS in all (at least one, which then goes alone)."""
    chunk: list[_Ready] = []
    chars = 0
    for one in ready[at : at + MANY_CHUNK]:
        size = _text_chars(one)
        if chunk and chars + size > MANY_TEXT_CHARS:
            break
        chunk.append(one)
        chars += size
        if chars > MANY_TEXT_CHARS:
            break
    return chunk


def _text_chars(ready: _Ready) -> int:
    """What the server counts of a put: its ``text``, or its value as JSON without one."""
    body = ready.body
    assert body is not None
    if isinstance(body.text, str):
        return len(body.text)
    return len(json.dumps(body.value.to_dict(), ensure_ascii=False, sort_keys=True))


def _succeeded(results: list[Any]) -> list[Any]:
    """A Parallel step's results, or the first branch's exception."""
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        raise failed[0]
    return results


class SkippedWriteError(MemorySyncError):
    """The server answered ``status: "skipped"``: the plan's quota is used up. Not worth retrying."""

    @property
    def transient(self) -> bool:
        return False


class MemoryNotFoundError(LookupError):
    """A delete without ``user_id`` found nothing to delete under the user it resolved to."""


class _Tenant:
    def __repr__(self) -> str:
        return "TENANT"


TENANT = _Tenant()


@dataclass(frozen=True)
class Parallel:
    """Run several operations side by side (at most ``limit`` at once); the reply is their results
    in order, an exception in place of a result for each branch that failed."""

    branches: list[Any]
    limit: int = CONCURRENCY


@dataclass(frozen=True)
class Call:
    """One request: ``operation`` is a generated module (``sync_detailed`` / ``asyncio_detailed``),
    ``expect`` its 2xx model, which the answer sent back into the operation is checked against."""

    operation: ModuleType
    body: Any  # None: the operation takes no body
    expect: type[Any]
    args: Mapping[str, Any] = field(default_factory=dict)  # path, query and header arguments


Steps = Generator["Call | Parallel | _Tenant", Any, T]
# What agno's db methods return: UserMemory objects, or rows (dicts) when deserialize=False.
Shaped = UserMemory | dict[str, Any]
Listing = list[UserMemory] | tuple[list[dict[str, Any]], int]


@dataclass
class Plan(Generic[T]):
    """An operation ready to run: its steps, its failure kind and its fail-open answer."""

    kind: Kind
    what: str
    steps: Steps[T]
    empty: T | None = None
    units: int = 1  # budget multiplier for batches
    # Writes: each value and its updated_at mode (see MemoryOps._merge), so a failed write can be retried later,
    # and what a fail-open caller is told was stored. Deletes: the (user, key) pairs they touch.
    writes: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    keys: list[tuple[str, str]] = field(default_factory=list)
    deserialize: bool | None = True


async def drive(steps: Steps[T], connection: Connection) -> T:
    """Run ``steps`` against ``connection``: the only place an operation meets the network."""
    reply: Any = None
    failed: MemorySyncError | None = None
    try:
        while True:
            # A call's error goes back into the steps, which may handle it (a route the server
            # does not have); unhandled, it ends them and reaches the caller.
            step = steps.send(reply) if failed is None else steps.throw(failed)
            failed = None
            if step is TENANT:
                reply = await connection.atenant_id()
            elif isinstance(step, Call):
                body = {} if step.body is None else {"body": step.body}
                try:
                    reply = await acall(
                        step.operation.asyncio_detailed,
                        client=connection.client,
                        expect=step.expect,
                        **body,
                        **step.args,
                    )
                except MemorySyncError as error:
                    failed = error
            elif isinstance(step, Parallel):
                reply = await _parallel(step, connection)
            else:
                raise TypeError(f"an operation yielded {step!r}; expected a Call or TENANT")
    except StopIteration as done:
        result: T = done.value  # a generator's return value arrives untyped, on StopIteration
        return result
    finally:
        steps.close()


async def _parallel(step: Parallel, connection: Connection) -> list[Any]:
    gate = asyncio.Semaphore(max(1, step.limit))

    async def one(branch: Steps[Any]) -> Any:
        async with gate:
            return await drive(branch, connection)

    # return_exceptions: every branch finishes (or is cancelled with the batch) before the
    # operation looks at the results, so no request is left running behind its caller.
    return await asyncio.gather(*(one(b) for b in step.branches), return_exceptions=True)


class MemoryOps:
    """Builds the plans; holds what every request shares (source, default user, clock)."""

    def __init__(
        self,
        *,
        source: str,
        default_user_id: str,
        clock: Callable[[], float],
        min_search_score: float = 0.15,
    ) -> None:
        self.source = _non_blank("source", source)
        self.default_user_id = _non_blank("default_user_id", default_user_id)
        self.clock = clock
        if isinstance(min_search_score, bool) or not isinstance(min_search_score, (int, float)):
            raise TypeError(f"min_search_score must be a number in [0, 1], got {min_search_score!r}")
        if not 0.0 <= min_search_score <= 1.0:
            raise ValueError(f"min_search_score must be in [0, 1], got {min_search_score!r}")
        self.min_search_score = float(min_search_score)
        self._last_inserted = 0
        self._stamp_lock = threading.Lock()
        self._put_many_offered = True  # until the server answers /v1/state/put_many with 404

    # ---------------------------------------------------------------- reads
    def get_user_memories(
        self,
        *,
        user_id: str | None,
        agent_id: str | None,
        team_id: str | None,
        topics: Sequence[str] | None,
        search_content: str | None,
        limit: int | None,
        page: int | None,
        sort_by: str | None,
        sort_order: Any,
        deserialize: bool | None,
    ) -> Plan[Listing]:
        user = self._user(user_id)
        check_page(limit, page)
        wanted_topics = check_topics(topics)
        order = sort_direction(sort_order)
        query = search_content.strip() if isinstance(search_content, str) else None
        if search_content is not None and not isinstance(search_content, str):
            raise TypeError(f"search_content must be a string or None, got {search_content!r}")

        def steps() -> Steps[Listing]:
            if query and len(query) >= MIN_SEARCH_CHARS:
                found = yield from self._search(user, query)
                listed = yield from self._list(user)
                written = {v["memory_id"]: i for i, v in enumerate(listed)}
                # equal scores keep the order the memories were written in, not the server's
                found.sort(key=lambda pair: (-pair[1], written.get(pair[0]["memory_id"], len(written))))
                ranked = [v for v, score in found if score >= self.min_search_score or contains(v, query)]
                have = {v["memory_id"] for v in ranked}
                # agno's own backends return exactly the rows containing the text: those come
                # first (ranked ones by relevance, then fragments like "osl" the ranking missed,
                # oldest first); the semantic matches that do not contain it follow, by relevance.
                literal = [v for v in ranked if contains(v, query)]
                literal += [v for v in listed if v["memory_id"] not in have and contains(v, query)]
                values = literal + [v for v in ranked if not contains(v, query)]
            else:
                values = yield from self._list(user)
                if query:
                    values = [v for v in values if contains(v, query)]
            values = [v for v in values if matches(v, agent_id, team_id, wanted_topics)]
            total = len(values)
            values = paginate(sort_rows(values, sort_by, order), limit, page)
            if deserialize is False:
                return [as_row(v) for v in values], total
            return [from_value(v) for v in values]

        empty: Listing = ([], 0) if deserialize is False else []
        return Plan("read", "get_user_memories", steps(), empty)

    def get_user_memory(
        self, *, memory_id: str, deserialize: bool | None, user_id: str | None
    ) -> Plan[Shaped | None]:
        user = self._user(user_id)
        key = _non_blank("memory_id", memory_id)

        def steps() -> Steps[Shaped | None]:
            value = yield from self._get(user, key)
            if value is None:
                return None
            return as_row(value) if deserialize is False else from_value(value)

        return Plan("read", "get_user_memory", steps(), None)

    def get_all_memory_topics(self, *, user_id: str | None) -> Plan[list[str]]:
        user = self._user(user_id)

        def steps() -> Steps[list[str]]:
            values = yield from self._list(user)
            return sorted({t for v in values for t in (v.get("topics") or []) if isinstance(t, str)})

        return Plan("read", "get_all_memory_topics", steps(), [])

    def get_user_memory_stats(
        self, *, limit: int | None, page: int | None, user_id: str | None
    ) -> Plan[tuple[list[dict[str, Any]], int]]:
        # Stats are per user and this db never lists across users: without a user, the default one.
        user = self._user(user_id)
        check_page(limit, page)

        def steps() -> Steps[tuple[list[dict[str, Any]], int]]:
            values = yield from self._list(user)
            if not values:
                return [], 0
            last = max(last_change(v) or 0 for v in values)
            rows = [{"user_id": user, "total_memories": len(values), "last_memory_updated_at": last}]
            return paginate(rows, limit, page), 1

        return Plan("read", "get_user_memory_stats", steps(), ([], 0))

    # ---------------------------------------------------------------- writes
    def upsert_user_memory(
        self, memory: UserMemory, *, deserialize: bool | None, user_id: str | None = None
    ) -> Plan[Shaped | None]:
        """``user_id`` is the owner for a memory that names none (else ``default_user_id``)."""
        value = self._new_value(memory, user_id)
        batch = self.write_values([(value, "caller")], what="upsert_user_memory", deserialize=deserialize)
        # empty=None marks a one-memory write (MemorySyncDb._failed answers one value, not a list)
        return Plan(
            batch.kind,
            batch.what,
            self._one(batch.steps),
            None,
            units=batch.units,
            writes=batch.writes,
            keys=batch.keys,
            deserialize=batch.deserialize,
        )

    def upsert_memories(
        self,
        memories: Iterable[UserMemory],
        *,
        deserialize: bool | None,
        preserve_updated_at: bool,
        user_id: str | None = None,
    ) -> Plan[list[Shaped]]:
        if memories is None or isinstance(memories, (str, bytes, UserMemory)):
            raise TypeError("upsert_memories takes a list of UserMemory objects")
        mode = "preserve" if preserve_updated_at else "now"
        values = [(self._new_value(m, user_id), mode) for m in memories]
        return self.write_values(values, what="upsert_memories", deserialize=deserialize)

    def write_values(
        self, values: list[tuple[dict[str, Any], str]], *, what: str, deserialize: bool | None
    ) -> Plan[list[Shaped]]:
        """Store prepared values, side by side; the result is what was stored, in the given order."""

        def steps() -> Steps[list[Shaped]]:
            if len(values) == 1:
                stored = [(yield from self.put_steps(*values[0]))]
            else:
                known = yield from self._snapshots(values)
                ready = _succeeded(
                    (yield Parallel([self._prepared(v, keep, known.get(v["user_id"])) for v, keep in values]))
                )
                yield from self._write_many([r for r in ready if r.body is not None])
                stored = [r.merged for r in ready]
            return [self.shape(v, deserialize) for v in stored]

        # One write's budget per CONCURRENCY memories (at least one): the batch runs side by side.
        units = max(1, -(-len(values) // CONCURRENCY))
        return Plan("write", what, steps(), [], units=units, writes=values, deserialize=deserialize)

    def _write_many(self, ready: list[_Ready]) -> Steps[None]:
        """The prepared writes of a batch: MANY_CHUNK to a ``/v1/state/put_many`` call, or one
        ``/v1/state/put`` each, side by side, where the server has no such route (hosted
        MemorySync answers 404; learnt once per db)."""
        at = 0
        while at < len(ready) and self._put_many_offered:
            chunk = _chunk(ready, at)
            if len(chunk) == 1:  # one memory: a put of its own says the same in fewer bytes
                _succeeded((yield Parallel([self._put_ready(chunk[0])])))
                at += 1
                continue
            try:
                answer = yield Call(
                    put_state_many,
                    PutStateManyRequest(items=[r.body for r in chunk if r.body is not None]),
                    PutStateManyResponse,
                )
            except MemorySyncError as error:
                if error.status_code == 413:  # memories too large to send together: one put each
                    _succeeded((yield Parallel([self._put_ready(r) for r in chunk])))
                    at += len(chunk)
                    continue
                if error.status_code not in (404, 405):
                    raise
                logger.info("The server has no /v1/state/put_many (%s): one put per memory", error)
                self._put_many_offered = False
                break
            for one, put in zip(chunk, answer.items, strict=True):
                yield from self._written(one, put)
            at += len(chunk)
        if at < len(ready):
            _succeeded((yield Parallel([self._put_ready(r) for r in ready[at:]])))

    def _put_ready(self, ready: _Ready) -> Steps[None]:
        assert ready.body is not None
        answer = yield Call(put_state, ready.body, PutStateResponse)
        yield from self._written(ready, answer)

    def _snapshots(self, values: list[tuple[dict[str, Any], str]]) -> Steps[dict[str, dict[str, Any]]]:
        """For each user with at least SNAPSHOT_MIN memories in the batch, all of that user's
        records in one list request instead of one get per memory, when one page holds them all."""
        counts: dict[str, int] = {}
        for value, _ in values:
            counts[value["user_id"]] = counts.get(value["user_id"], 0) + 1
        users = [u for u, n in counts.items() if n >= SNAPSHOT_MIN]
        if not users:
            return {}
        pages = yield Parallel([self._one_page(u) for u in users])
        return {u: page for u, page in zip(users, pages, strict=True) if isinstance(page, dict)}

    def _one_page(self, user: str) -> Steps[dict[str, dict[str, Any]] | None]:
        tenant = yield TENANT
        body = ListStateRequest(
            tenant_id=tenant, user_id=user, namespace_prefix=NAMESPACE, source=self.source, limit=LIST_PAGE
        )
        page = yield Call(list_state, body, StateList)
        if page.total > len(page.items):
            return None  # more than one page: one get per memory is cheaper than listing them all
        by_key = {}
        for item in page.items:
            value = self._value_of(item, user)
            if value is not None and list(item.namespace) == NAMESPACE:
                by_key[item.key] = value
        return by_key

    @staticmethod
    def _one(steps: Steps[list[Shaped]]) -> Steps[Shaped | None]:
        stored = yield from steps
        return stored[0]

    @staticmethod
    def shape(value: dict[str, Any], deserialize: bool | None) -> Shaped:
        return as_row(value) if deserialize is False else from_value(value)

    def promised(self, value: dict[str, Any], mode: str) -> dict[str, Any]:
        """What a write of ``value`` will store if the record is new: told to a fail-open caller
        whose write was queued for a retry."""
        return self._merge(value, None, mode)

    # ---------------------------------------------------------------- deletes
    def delete_user_memories(
        self, *, memory_ids: Iterable[str], user_id: str | None, must_exist: bool = False
    ) -> Plan[int]:
        """``must_exist``: the caller did not name the user, so an id not found under the one it
        resolved to is an error, not the usual idempotent no-op (nothing may look deleted that
        was not)."""
        if memory_ids is None or isinstance(memory_ids, (str, bytes)):
            # None must never reach the wire: on delete_state, keys=null means "the whole namespace".
            raise TypeError(
                "delete_user_memories takes a list of memory ids; to delete every memory of one user "
                "call forget_user_memories(user_id)"
            )
        user = self._user(user_id)
        keys = list(dict.fromkeys(_non_blank("memory_id", k) for k in memory_ids))
        chunks = [keys[i : i + DELETE_CHUNK] for i in range(0, len(keys), DELETE_CHUNK)]

        def steps() -> Steps[int]:
            deleted = 0
            for chunk in chunks:
                deleted += yield from self._delete(user, chunk)
            if must_exist and deleted < len(keys):
                missing = len(keys) - deleted
                what = (
                    f"memory {keys[0]!r} was" if len(keys) == 1 else f"{missing} of {len(keys)} memories were"
                )
                raise MemoryNotFoundError(
                    f"delete without user_id: {what} not found under user {user!r}, so not deleted. "
                    "Memories are scoped per user: pass the owner, delete_user_memory(memory_id, user_id=...)."
                )
            return deleted

        plan = Plan("delete", "delete_user_memories", steps(), units=max(1, len(chunks)))
        plan.keys = [(user, k) for k in keys]
        return plan

    def forget_user_memories(self, *, user_id: str) -> Plan[int]:
        if user_id is None:
            raise ValueError(
                "forget_user_memories needs an explicit user_id: it deletes all of that user's memories"
            )
        user = _non_blank("user_id", user_id)

        def steps() -> Steps[int]:
            deleted = yield from self._delete(user, None)
            # The facts shown as this user's memories go too: every memory of the user.
            shown = [v["memory_id"] for v in (yield from self._facts(user))]
            return deleted + ((yield from self._delete(user, shown)) if shown else 0)

        plan = Plan("delete", "forget_user_memories", steps())
        plan.keys = [(user, "*")]
        return plan

    # ---------------------------------------------------------------- steps
    def _get(self, user: str, key: str) -> Steps[dict[str, Any] | None]:
        if is_fact_id(key):
            facts = yield from self._facts(user)
            return next((v for v in facts if v["memory_id"] == key), None)
        tenant = yield TENANT
        body = GetStateRequest(
            tenant_id=tenant, user_id=user, namespace=NAMESPACE, key=key, source=self.source
        )
        answer = yield Call(get_state, body, GetStateResponse)
        return self._value_of(answer.item, user)

    def _list(self, user: str) -> Steps[list[dict[str, Any]]]:
        """Every record of ``user``, oldest first: the order agno's SQL backends read rows in,
        which ``MemoryManager``'s last_n / first_n rely on to break ties between equal
        ``updated_at`` values."""
        tenant = yield TENANT
        by_key: dict[str, dict[str, Any]] = {}
        first_seen: dict[str, int] = {}
        offset = 0
        while True:
            body = ListStateRequest(
                tenant_id=tenant,
                user_id=user,
                namespace_prefix=NAMESPACE,
                source=self.source,
                limit=LIST_PAGE,
                offset=offset,
            )
            page = yield Call(list_state, body, StateList)
            for item in page.items:
                value = self._value_of(item, user)
                if value is not None and item.key not in by_key:  # a write between pages can repeat one
                    by_key[item.key] = value
                    first_seen[item.key] = _inserted(value, item)
            offset += len(page.items)
            if not page.items or offset >= page.total:
                break
        for value in (yield from self._facts(user)):
            if value["memory_id"] not in by_key:
                by_key[value["memory_id"]] = value
                first_seen[value["memory_id"]] = value[INSERTED]
        # The server lists newest first; reversed, ties of the insertion time keep that order.
        ordered = list(reversed(by_key))
        ordered.sort(key=first_seen.__getitem__)
        return [by_key[k] for k in ordered]

    def _facts(self, user: str) -> Steps[list[dict[str, Any]]]:
        """The person's facts that are no agno record (made from AG2 turns, saved through the SDK),
        as agno memories with their ``m_<n>`` ids, oldest first: one memory for every reader."""
        tenant = yield TENANT
        answer = yield Call(
            list_memories, None, MemoryList, {"tenant_id": tenant, "user_id": user, "limit": 0}
        )
        values = [
            fact_value(m.memory_id, m.text, m.metadata.to_dict(), m.created_at, user) for m in answer.memories
        ]
        return sorted((v for v in values if v is not None), key=lambda v: v[INSERTED])

    def _search(self, user: str, query: str) -> Steps[list[tuple[dict[str, Any], float]]]:
        tenant = yield TENANT
        body = SearchStateRequest(
            tenant_id=tenant,
            user_id=user,
            query=query[:MAX_QUERY_CHARS],
            namespace_prefix=NAMESPACE,
            source=self.source,
            limit=SEARCH_LIMIT,
        )
        page = yield Call(search_state, body, StateList)
        found = []
        for item in page.items:
            value = self._value_of(item, user)
            score = item.score if isinstance(item.score, (int, float)) else 0.0
            if value is not None and score > 0:
                found.append((value, float(score)))
        query_body = QueryRequest(
            tenant_id=tenant, user_id=user, prompt=query[:MAX_QUERY_CHARS], k=SEARCH_LIMIT
        )
        answer = yield Call(query_memories, query_body, QueryResponse)
        for m in answer.memories:
            fact = fact_value(m.memory_id, m.text, m.metadata.to_dict(), m.created_at, user)
            if fact is not None and m.score > 0:
                found.append((fact, float(m.score)))
        found.sort(key=lambda pair: -pair[1])  # stable: the server's order breaks ties
        return found

    def put_steps(self, value: dict[str, Any], mode: str, known: Any = None) -> Steps[dict[str, Any]]:
        """Read the stored record, merge, write: the whole upsert of one memory (also a retry's).
        ``known``: the user's records, already read by the batch (skips the read)."""
        ready = yield from self._prepared(value, mode, known)
        if ready.body is not None:
            answer = yield Call(put_state, ready.body, PutStateResponse)
            yield from self._written(ready, answer)
        return ready.merged

    def _prepared(self, value: dict[str, Any], mode: str, known: Any) -> Steps[_Ready]:
        """What one memory's write sends: the stored record read (unless ``known``), merged."""
        tenant = yield TENANT
        user, key = value["user_id"], value["memory_id"]
        if isinstance(known, dict) and not is_fact_id(key):
            stored = known.get(key)
        else:
            stored = yield from self._get(user, key)
        merged = {k: v for k, v in self._merge(value, stored, mode).items() if k != FROM_FACT}
        if stored is not None and merged == {k: v for k, v in stored.items() if k != FROM_FACT}:
            # The server would answer created: false and do nothing: skip the write altogether.
            return _Ready(merged, stored, None)
        text = memory_text(merged)
        optional: dict[str, Any] = {}
        if text:
            optional["text"] = text
        metadata = fact_metadata(merged)
        if metadata:
            optional["metadata"] = Metadata.from_dict(metadata)
        body = PutStateRequest(
            tenant_id=tenant,
            user_id=user,
            namespace=NAMESPACE,
            key=key,
            value=PutStateRequestValue.from_dict(merged),
            source=self.source,
            index=True,
            # The memory is a fact for every reader, as agno's model wrote it: not re-extracted,
            # which would keep it only when its wording parses as a first-person statement.
            as_fact=bool(text),
            replace_derived_facts=True,
            **optional,
        )
        return _Ready(merged, stored, body)

    def _written(self, ready: _Ready, answer: PutStateResponse) -> Steps[None]:
        """After the server answered one memory's write."""
        assert ready.body is not None
        key, user = ready.body.key, ready.body.user_id
        if answer.status == "skipped":
            raise SkippedWriteError(
                f"put_state: memory {key!r} was skipped by the server (the plan's quota is used up): "
                "nothing was stored"
            )
        if is_fact_id(key) and ready.stored is not None and ready.stored.get(FROM_FACT):
            # An AG2 fact changed in agno is now agno's record (and its fact): the old one goes.
            yield Call(
                forget_memories,
                ForgetByIds(memory_ids=[key], reason="agno update"),
                list,
                {"x_end_user_id": user},
            )

    def _delete(self, user: str, keys: list[str] | None) -> Steps[int]:
        if keys == []:
            return 0  # [] deletes nothing on the server too: skip the round trip
        facts = [k for k in keys or [] if is_fact_id(k)]
        if facts:
            # Another framework's facts shown as agno memories are forgotten as facts.
            forgotten = 0
            for at in range(0, len(facts), FORGET_CHUNK):
                chunk = ForgetByIds(memory_ids=list(facts[at : at + FORGET_CHUNK]), reason="agno delete")
                gone = yield Call(forget_memories, chunk, list, {"x_end_user_id": user})
                forgotten += len(gone)
            rest = [k for k in keys or [] if not is_fact_id(k)]
            return forgotten + ((yield from self._delete(user, rest)) if rest else 0)
        tenant = yield TENANT
        body = DeleteStateRequest(
            tenant_id=tenant,
            user_id=user,
            namespace=NAMESPACE,
            keys=keys,
            source=self.source,
            delete_derived_facts=True,
        )
        answer = yield Call(delete_state, body, DeleteStateResponse)
        return len(answer.deleted_ids)

    # ---------------------------------------------------------------- helpers
    def _user(self, user_id: str | None) -> str:
        return self.default_user_id if user_id is None else _non_blank("user_id", user_id)

    def _new_value(self, memory: UserMemory, user_id: str | None = None) -> dict[str, Any]:
        if not isinstance(memory, UserMemory):
            raise TypeError(f"upsert expects an agno UserMemory, got {type(memory).__name__}")
        value = to_value(memory)  # a copy: the caller's object is never touched
        if value["memory_id"] is None:
            value["memory_id"] = str(uuid.uuid4())
        value["memory_id"] = _non_blank("memory_id", value["memory_id"])
        value["user_id"] = self._user(value["user_id"] if value["user_id"] is not None else user_id)
        value[INSERTED] = self._stamp()  # kept only if the record turns out to be new
        return value

    def _stamp(self) -> int:
        """Nanoseconds since the epoch, strictly increasing in this process: the insertion order
        of memories written in the same second (or in one batch, side by side)."""
        with self._stamp_lock:
            self._last_inserted = max(self._last_inserted + 1, time.time_ns())
            return self._last_inserted

    def _merge(self, new: dict[str, Any], stored: Mapping[str, Any] | None, mode: str) -> dict[str, Any]:
        """The value to store. ``mode`` says whose ``updated_at`` wins: ``"caller"`` keeps the one
        the memory carries (``upsert_user_memory``), ``"preserve"`` / ``"now"`` follow
        ``upsert_memories(preserve_updated_at=True / False)`` as agno's own backends do."""
        merged = dict(new)
        if stored is not None:
            # agno's update tool builds a fresh UserMemory, resetting created_at: the first one wins.
            if stored.get("created_at") is not None:
                merged["created_at"] = stored["created_at"]
            # The insertion order is the first write's; a record written before it was kept has none.
            if stored.get(INSERTED) is not None:
                merged[INSERTED] = stored[INSERTED]
            else:
                merged.pop(INSERTED, None)
        given = new.get("updated_at") if mode != "now" else None
        before = stored.get("updated_at") if stored is not None else None
        if mode == "preserve" and given is not None:
            return merged
        if before is not None and same_content(merged, stored or {}) and given in (None, before):
            # Unchanged: send the stored value byte for byte so the server does nothing at all.
            merged["updated_at"] = before
            return merged
        if given is not None and given != before:
            # The caller's own time (MemoryManager stamps every memory it adds): kept, so memories
            # written in one run keep the order their writer gave them. A time equal to the stored
            # one on a changed memory is a read-modify-write: that change happens now.
            return merged
        merged["updated_at"] = int(self.clock())
        return merged

    @staticmethod
    def _value_of(item: StateItem | None, user: str) -> dict[str, Any] | None:
        if item is None or list(item.namespace) != NAMESPACE:
            return None
        value = dict(item.value.additional_properties)
        value.setdefault("memory_id", item.key)
        if value.get("user_id") is None:
            value["user_id"] = user  # agno's MemoryManager drops rows without a user_id
        try:
            if not isinstance(value.get("memory"), (str, dict)):
                raise TypeError("no 'memory' text")
            from_value(value)
        except (TypeError, ValueError) as exc:
            # Another writer's record in our namespace must not take every read down with it.
            logger.warning("skipping state record %r: it is not a readable agno memory (%s)", item.key, exc)
            return None
        return value


def _inserted(value: Mapping[str, Any], item: StateItem) -> int:
    """When the record was first written, in ns: our own stamp, else the server's created_at."""
    stamp = value.get(INSERTED)
    if isinstance(stamp, int) and not isinstance(stamp, bool):
        return stamp
    created = item.created_at
    if isinstance(created, datetime):
        aware = created if created.tzinfo is not None else created.replace(tzinfo=timezone.utc)
        return int(aware.timestamp() * 1e9)
    return 0


def _non_blank(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return value
