"""Kept turns and the facts distilled from them rank as one: a turn takes one place in a result.

A person's turn is stored twice over: verbatim (a ``KEPT_TURN`` memory) and as the facts
extracted from it (``metadata.distilled_from`` names the turn). Both are searched, since either
may match a question the other misses, but five places filled by one sentence and its three
facts would crowd out the four other things the question needed. So a result holds one member
per turn, scored by the turn's best member. That member is the best fact when it matches
nearly as well as the turn (short, dated, kept current by supersede); otherwise the turn
itself, whose words carry what extraction left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..domain import KEPT_TURN, Fact, TurnMark
from .index import FACT, TURN

__all__ = ["FACT_MARGIN", "POOL", "marks_of", "one_per_turn", "turn_id", "turn_of"]

# A fact stands for its turn when it scores at least the turn's best minus this.
FACT_MARGIN = 0.15
# Candidates read per place asked for, before grouping: a turn with its facts fills ~2-3.
POOL = 4


def turn_id(fact_id: int, event_type: str, source: Any) -> int:
    """The id of the turn a memory came from (its own id for a turn or a stand-alone fact), from
    its event type and its ``metadata.distilled_from`` (``source``)."""
    if event_type == KEPT_TURN:
        return fact_id
    if isinstance(source, str) and source.startswith("m_") and source[2:].isdecimal():
        return int(source[2:])
    return fact_id


def turn_of(fact: Fact) -> int:
    """The id of the turn a memory came from (its own id for a turn or a stand-alone fact)."""
    return turn_id(fact.id, fact.event_type, fact.metadata.get("distilled_from"))


def marks_of(ids: np.ndarray, marks: Sequence[TurnMark]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(turn ids, kinds, days said) as ``UserIndex`` keeps them, of the facts ``ids`` with their ``marks``."""
    count = len(ids)
    turns = np.fromiter(
        (turn_id(int(i), event, source) for i, (event, source, _) in zip(ids, marks, strict=True)),
        dtype=np.int64,
        count=count,
    )
    kinds = np.fromiter(
        (TURN if event == KEPT_TURN else FACT for event, _, _ in marks), dtype=np.int8, count=count
    )
    days = np.fromiter((said for _, _, said in marks), dtype=np.int32, count=count)
    return turns, kinds, days


def one_per_turn(
    turns: Sequence[int], kinds: Sequence[int], scores: Sequence[float], k: int
) -> list[tuple[int, float]]:
    """Of memories ranked best first (each one's turn, kind and score), one member per turn, at
    most ``k``: (position of the member chosen, the turn's best score)."""
    groups: dict[int, list[int]] = {}
    for position, turn in enumerate(turns):
        groups.setdefault(turn, []).append(position)
    out: list[tuple[int, float]] = []
    for members in list(groups.values())[:k]:
        best = scores[members[0]]
        facts = [member for member in members if kinds[member] != TURN]
        chosen = facts[0] if facts and scores[facts[0]] >= best - FACT_MARGIN else members[0]
        out.append((chosen, best))
    return out
