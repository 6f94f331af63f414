"""Ranking an end user's memories for a prompt or a query, narrowed by type or by filters."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from ..event_types import FILTER_POOL, narrow
from ..retrieval import FactSearch
from ..storage import Fact, Storage

DEFAULT_K = 10
Ranked = list[tuple[Fact, float]]


@dataclass(frozen=True)
class Narrowing:
    """The ``filters`` of /memory/query: every given criterion must hold (``tags``: all of them)."""

    memory_type: str | None = None
    source: str | None = None
    tags: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None

    def test(self) -> Callable[[Fact], bool] | None:
        """This narrowing as a test on a fact; None when nothing narrows."""
        tests: list[Callable[[Fact], bool]] = []
        if self.memory_type is not None:
            tests.append(lambda f: f.event_type == self.memory_type)
        if self.source is not None:
            tests.append(lambda f: f.source == self.source)
        if self.tags:
            tests.append(lambda f: set(self.tags).issubset(f.tags))
        if self.since is not None:
            tests.append(lambda f: f.created_at >= self.since)  # type: ignore[operator]
        if self.until is not None:
            tests.append(lambda f: f.created_at <= self.until)  # type: ignore[operator]
        if not tests:
            return None
        return lambda fact: all(test(fact) for test in tests)


class Recall:
    def __init__(self, store: Storage, search: FactSearch) -> None:
        self.store, self.search = store, search

    def by_types(
        self,
        tenant: str,
        user: str,
        prompt: str,
        k: int,
        types: list[str] | None,
        notes: dict[str, str],
        *,
        gated: bool = False,
    ) -> Ranked:
        """The ``k`` best of the memories whose event type is among ``types`` (all when None);
        ``gated`` drops the ones not relevant enough to paste into a prompt. What the narrowing
        ignored is noted in ``notes`` (reply headers)."""
        rank = self.search.recall if gated else self.search.search
        wanted = narrow(self.store, tenant, types, notes)
        if wanted is None:
            return rank(tenant, user, prompt, k)
        # The filter applies before a turn and its facts are grouped (retrieval/turns.py).
        return rank(tenant, user, prompt, max(k, FILTER_POOL), keep=lambda f: f.event_type in wanted)[:k]

    def by_filters(self, tenant: str, user: str, query: str, k: int, narrowing: Narrowing) -> Ranked:
        keep = narrowing.test()
        return self.search.search(tenant, user, query, k if keep is None else max(k, FILTER_POOL), keep=keep)[
            :k
        ]
