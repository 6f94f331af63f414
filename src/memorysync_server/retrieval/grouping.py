"""The second stage of a search: candidates to the memories returned.

One member per turn (``turns``), near-repeats moved down (``ranking.diversified``), less what the
prompt itself stored (``said``) and what a ``keep`` filter refuses. The index knows each row's turn
and kind, so only the memories returned are decoded, plus the rows it cannot place (edited since
it was read) and every row a filter must see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from ..domain import KEPT_TURN, Fact
from .candidates import Candidates
from .index import FACT, TURN, UNKNOWN
from .ranking import diversified
from .said import Said
from .turns import one_per_turn, turn_of

__all__ = ["Keep", "Ranked", "Read", "grouped"]

# Which memories a search may return (a type or metadata filter of the route).
Keep = Callable[[Fact], bool]
# Decodes facts of the user searched: the facts among the ids asked that exist, in that order.
Read = Callable[[Iterable[int]], list[Fact]]
# The memories returned with their scores, best first, and the best likeness outside the
# prompt's own turn (what recall's gate compares).
Ranked = tuple[list[tuple[Fact, float]], float]


def grouped(
    candidates: Candidates, said: Said, k: int, *, read: Read, keep: Keep | None, diversify: bool
) -> Ranked:
    """At most ``k`` memories of the ``candidates``, one per turn; ``diversify`` moves
    near-repeats down (sentence vectors: hashed ones say little about meaning)."""
    ranked = _grouped(
        candidates, said, k, read=read, keep=keep, diversify=diversify, decode_all=keep is not None
    )
    if ranked is None:  # a memory chosen undecoded was deleted meanwhile: rank as if it never was
        ranked = _grouped(candidates, said, k, read=read, keep=keep, diversify=diversify, decode_all=True)
    return ranked if ranked is not None else ([], 0.0)


def _grouped(
    candidates: Candidates,
    said: Said,
    k: int,
    *,
    read: Read,
    keep: Keep | None,
    diversify: bool,
    decode_all: bool,
) -> Ranked | None:
    """The candidates with one member per turn, near-repeats moved down, less the turn and the
    facts the prompt itself stored (``said``), and the best likeness outside that turn (for
    recall's gate); None when a memory chosen without decoding turned out deleted
    (``decode_all`` then decodes first)."""
    ids, scores, likeness = candidates.ids, candidates.scores, candidates.likeness
    index, where, found = candidates.index, candidates.where, candidates.found
    left_out, echoes = said
    if index is not None:
        turns = index.turns[where]
        kinds = np.where(found, index.kinds[where], np.int8(UNKNOWN))
    else:
        turns, kinds = np.zeros(len(ids), dtype=np.int64), np.full(len(ids), UNKNOWN, dtype=np.int8)
    # A set lookup per candidate: np.isin sorts both arrays (~50 us for 40 candidates).
    alive = (
        np.array([i not in echoes for i in ids.tolist()], dtype=bool) if echoes else np.ones(len(ids), bool)
    )
    decoded: dict[int, Fact] = {}
    need = np.flatnonzero(alive if decode_all else alive & (kinds == UNKNOWN))
    if len(need):
        decoded = {f.id: f for f in read(int(i) for i in ids[need])}
        for j in need:
            fact = decoded.get(int(ids[j]))
            if fact is None or (keep is not None and not keep(fact)):
                # A filter applies before turns are grouped: a turn asked for by type stands for itself.
                alive[j] = False
            else:
                turns[j], kinds[j] = turn_of(fact), TURN if fact.event_type == KEPT_TURN else FACT
    members = np.flatnonzero(alive if left_out is None else alive & (turns != left_out))
    liked = float(likeness[members].max()) if len(members) else 0.0
    scored = [round(score, 6) for score in np.clip(scores[members], 0.0, 1.0).tolist()]
    member_turns = [int(t) for t in turns[members]]
    if diversify and index is not None and len(members) >= 2 and bool(found[members].all()):
        # Near-repeats move down (ranking.diversified); hashed vectors say little about meaning.
        order = diversified(scored, index.matrix[where[members]], member_turns, k)
    else:
        order = list(enumerate(scored))
    chosen = one_per_turn(
        [member_turns[i] for i, _ in order],
        [int(kinds[members[i]]) for i, _ in order],
        [s for _, s in order],
        k,
    )
    picked = [(int(ids[members[order[i][0]]]), best) for i, best in chosen]
    missing = [fact_id for fact_id, _ in picked if fact_id not in decoded]
    if missing:
        decoded.update((f.id, f) for f in read(missing))
    if any(fact_id not in decoded for fact_id, _ in picked):
        return None
    return [(decoded[fact_id], best) for fact_id, best in picked], liked
