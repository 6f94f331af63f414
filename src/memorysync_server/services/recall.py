"""Ranking an end user's memories for a prompt or a query, narrowed by type or by filters."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from ..domain import KEPT_TURN, Fact
from ..domain.event_types import BUILTIN_EVENT_TYPES
from ..retrieval import FactSearch
from ..retrieval.turns import turn_of
from ..storage import Storage
from .figures import Tally

DEFAULT_K = 10
# A narrowed search ranks this many of the best matches and keeps those of the wanted types.
FILTER_POOL = 1000
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
        # Gated recalls, and those that found nothing to hand the model (services/figures.py).
        self.tally = Tally()

    def by_types(
        self, tenant: str, user: str, prompt: str, k: int, types: list[str] | None, *, gated: bool = False
    ) -> tuple[Ranked, list[str]]:
        """The ``k`` best of the memories whose event type is among ``types`` (all when None),
        and the names of ``types`` this tenant does not know, which were dropped. ``gated`` drops
        the memories not relevant enough to paste into a prompt."""
        rank = self.search.recall if gated else self.search.search
        wanted, dropped = self._narrow(tenant, types)
        if wanted is None:
            ranked = rank(tenant, user, prompt, k)
        else:
            # The filter applies before a turn and its facts are grouped (retrieval/turns.py).
            keep = lambda f: f.event_type in wanted  # noqa: E731
            ranked = rank(tenant, user, prompt, max(k, FILTER_POOL), keep=keep)[:k]
        if gated:
            self.tally.add("recalls")
            if not ranked:
                self.tally.add("empty_recalls")
        return ranked, dropped

    def turn_behind(self, tenant: str, user: str, fact: Fact) -> Fact | None:
        """The kept turn ``fact`` was distilled from (None: a turn itself, a fact said on its own,
        or its turn deleted since)."""
        source = turn_of(fact)
        if source == fact.id:
            return None
        found = self.search.fact_cache.get(tenant, user, [source])
        return found[0] if found and found[0].event_type == KEPT_TURN else None

    def _narrow(self, tenant: str, names: list[str] | None) -> tuple[frozenset[str] | None, list[str]]:
        """The event types a search keeps (None: every type, when ``names`` is absent or every
        name is unknown: neither built in nor carried by any of the tenant's memories), and the
        names dropped."""
        if not names:
            return None, []
        known = [name for name in names if name in BUILTIN_EVENT_TYPES]
        if len(known) < len(names):
            stored = self.store.facts.event_types(tenant)
            known = [name for name in names if name in BUILTIN_EVENT_TYPES or name in stored]
        dropped = [name for name in dict.fromkeys(names) if name not in known]
        return frozenset(known) or None, dropped

    def by_filters(self, tenant: str, user: str, query: str, k: int, narrowing: Narrowing) -> Ranked:
        keep = narrowing.test()
        return self.search.search(tenant, user, query, k if keep is None else max(k, FILTER_POOL), keep=keep)[
            :k
        ]
