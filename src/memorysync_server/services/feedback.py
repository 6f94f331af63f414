"""Feedback on a memory: each signal moves its importance (which feeds ranking) one step, clamped.

The step is computed from the importance as it is once the memory is locked, in the same unit
of work as the signal's row: concurrent signals add up as if given one after another.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..storage import Storage
from .errors import memory_not_visible
from .memories import ACTOR

NEUTRAL_IMPORTANCE = 0.5
IMPORTANCE_FLOOR, IMPORTANCE_CEILING = 0.05, 1.0
SIGNAL_STEP = {"positive": 0.1, "negative": -0.1, "retrieved": 0.02, "ignored": -0.02}
RISING, FALLING = frozenset({"positive", "retrieved"}), frozenset({"negative", "ignored"})
RECENT_SIGNALS = 10


@dataclass(frozen=True)
class Given:
    """One recorded signal: the importance before and after it, and every signal so far."""

    before: float
    after: float
    signals: list[str]

    def summary(self) -> dict[str, Any]:
        return {
            "total_signals": len(self.signals),
            "signal_counts": dict(Counter(self.signals)),
            "trend": _trend(self.signals[-RECENT_SIGNALS:]),
        }


def _trend(recent: list[str]) -> dict[str, Any]:
    up = sum(signal in RISING for signal in recent)
    down = sum(signal in FALLING for signal in recent)
    momentum = "rising" if up > down else "falling" if down > up else "neutral"
    return {
        "momentum": momentum,
        "consistency": round(max(up, down) / len(recent), 6) if recent else 0.0,
        "trend_multiplier": round(1.0 + 0.1 * (up - down) / len(recent), 6) if recent else 1.0,
        "recent_count": len(recent),
    }


class Feedback:
    def __init__(self, store: Storage) -> None:
        self.store = store

    def give(self, tenant: str, user: str, memory_id: int, signal: str, comment: str | None) -> Given:
        def record() -> Given:
            found = self.store.facts.lock(tenant, user, [memory_id])
            if not found:
                raise memory_not_visible(memory_id)
            current = found[0].importance
            before = NEUTRAL_IMPORTANCE if current is None else current
            after = round(min(max(before + SIGNAL_STEP[signal], IMPORTANCE_FLOOR), IMPORTANCE_CEILING), 6)
            self.store.facts.add_feedback(tenant, user, memory_id, signal, comment)
            if after != current:
                self.store.facts.update(tenant, user, memory_id, {"importance": after}, actor=ACTOR)
            return Given(
                before, after, [f.signal for f in self.store.facts.feedback(tenant, user, memory_id)]
            )

        return self.store.atomic(record)
