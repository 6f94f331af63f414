"""Decoded facts kept between searches.

A search reads the memories it returns (and those its index cannot group without reading them:
edited since it was loaded, or filtered by type), ~0.1-0.4 ms of a recall at 100k memories.
People come back to the same topics, so many of those were read by the searches just before. A fact is dropped from
here by every change the storage announces about it (``FactsChange``: added again with a new
vector, removed, superseded, edited, importance), and a user's facts all at once when the change
is unknown (a rollback, another process's write).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable

from ..domain import Fact, FactsChange

__all__ = ["FactCache"]

User = tuple[str, str]
# The storage's read: (tenant, user id, fact ids) -> the facts among them that exist.
Read = Callable[[str, str, list[int]], list[Fact]]


class FactCache:
    """The facts of the most recently searched users, at most ``max_facts`` in all; what is not
    here is read through ``read`` and kept unless a change to the user landed during the read."""

    def __init__(self, read: Read, *, max_facts: int = 20_000) -> None:
        self._read = read
        self.max_facts = max_facts
        self._users: OrderedDict[User, dict[int, Fact]] = OrderedDict()
        self._size = 0
        # Bumped by every change to a user's facts: a read that raced one is not kept.
        self._generation: dict[User, int] = {}
        self._lock = threading.Lock()

    def size(self) -> int:
        """The facts held now."""
        with self._lock:
            return self._size

    def get(self, tenant: str, user_id: str, ids: Iterable[int]) -> list[Fact]:
        """The facts among ``ids`` that exist, in the order asked (as ``FactStore.get``)."""
        ids = list(ids)
        key = (tenant, user_id)
        with self._lock:
            generation = self._generation.get(key, 0)
            known = self._users.get(key)
            if known is not None:
                self._users.move_to_end(key)
            found = {} if known is None else {i: known[i] for i in ids if i in known}
        missing = [i for i in ids if i not in found]
        if missing:
            fresh = self._read(tenant, user_id, missing)
            found.update((fact.id, fact) for fact in fresh)
            with self._lock:
                if self._generation.get(key, 0) == generation:
                    self._keep(key, fresh)
        return [found[i] for i in ids if i in found]

    def _keep(self, key: User, facts: list[Fact]) -> None:
        known = self._users.setdefault(key, {})
        self._users.move_to_end(key)
        before = len(known)
        known.update((fact.id, fact) for fact in facts)
        self._size += len(known) - before
        # The least recently searched users go first; a user larger than the whole budget starts
        # over (the rows of one search are then read again next time, as without a cache).
        while self._size > self.max_facts and self._users:
            _, dropped = self._users.popitem(last=False)
            self._size -= len(dropped)

    def changed(self, change: FactsChange) -> None:
        """Drop what ``change`` makes stale (a storage listener: ``Storage.on_facts_changed``)."""
        key = (change.tenant, change.user_id)
        with self._lock:
            self._generation[key] = self._generation.get(key, 0) + 1
            known = self._users.get(key)
            if known is None:
                return
            if change.unknown:
                self._size -= len(self._users.pop(key))
                return
            for fact_id in _touched(change):
                if known.pop(fact_id, None) is not None:
                    self._size -= 1


def _touched(change: FactsChange) -> set[int]:
    """The ids of the facts whose stored row ``change`` altered or removed."""
    return {
        *(change.added_ids or ()),  # new rows, or a new vector for an existing one
        *(change.removed_ids or ()),
        *(change.edited_ids or ()),
        *(change.superseded or {}),
        *(change.importance or {}),
    }
