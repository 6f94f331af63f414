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

from ..storage import KEPT_TURN, Fact

__all__ = ["FACT_MARGIN", "POOL", "one_per_turn", "turn_of"]

# A fact stands for its turn when it scores at least the turn's best minus this.
FACT_MARGIN = 0.15
# Candidates read per place asked for, before grouping: a turn with its facts fills ~2-3.
POOL = 4


def turn_of(fact: Fact) -> int:
    """The id of the turn a memory came from (its own id for a turn or a stand-alone fact)."""
    if fact.event_type == KEPT_TURN:
        return fact.id
    source = fact.metadata.get("distilled_from")
    if isinstance(source, str) and source.startswith("m_") and source[2:].isdigit():
        return int(source[2:])
    return fact.id


def one_per_turn(
    ranked: list[tuple[Fact, float]], k: int, *, without: int | None = None
) -> list[tuple[Fact, float]]:
    """``ranked`` (best first) with one member per turn, at most ``k``; ``without`` leaves out
    one turn and its facts (recall's own prompt, captured just before it)."""
    groups: dict[int, list[tuple[Fact, float]]] = {}
    for fact, score in ranked:
        key = turn_of(fact)
        if key != without:
            groups.setdefault(key, []).append((fact, score))
    out: list[tuple[Fact, float]] = []
    for members in list(groups.values())[:k]:
        best = members[0][1]
        facts = [member for member in members if member[0].event_type != KEPT_TURN]
        chosen = facts[0] if facts and facts[0][1] >= best - FACT_MARGIN else members[0]
        out.append((chosen[0], best))
    return out
