"""Scores: how a fact's likeness to the prompt becomes its rank (lexical boost, the days a
question names, the turn after a match, importance, superseded facts below their superseders),
the thresholds recall and search cut at, and the ranking of state records."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

import numpy as np

from ..domain import StateRow
from ..language.words import content_words, stem
from ..model import Embedder
from .arrays import best_dot, in_sorted, locate
from .index import TURN, UNKNOWN, UserIndex

__all__ = [
    "BM25_HALF",
    "COMPANION_MARGIN",
    "CONTEXT_RATIO",
    "FOLLOW_WEIGHT",
    "HYBRID_WEIGHT",
    "IMPORTANCE_WEIGHT",
    "LEXICAL_WEIGHT",
    "NEUTRAL_IMPORTANCE",
    "NOISE_FLOOR",
    "REDUNDANT_FROM",
    "REDUNDANT_WEIGHT",
    "RELEVANCE_THRESHOLD",
    "SEMANTIC_NOISE_FLOOR",
    "STATE_FLOOR",
    "STATE_RELATIVE",
    "SUPERSEDED_RATIO",
    "WHEN_WEIGHT",
    "below_superseders",
    "boosted",
    "companion_threshold",
    "cosine_rank",
    "diversified",
    "followed",
    "said_then",
    "weighted_by_importance",
]

# A prompt must score at least this to land in recall's `context`. Chosen from the hashed
# features: one shared content word (or topic) between a short prompt and a short fact gives
# ~0.2-0.5; unrelated texts only share stray character trigrams (< 0.1). See test_search.py.
RELEVANCE_THRESHOLD = 0.15
# Below this a match is hash-collision noise (stray trigrams), not similarity: query and state
# search leave it out instead of returning every row with a score of 0.003.
NOISE_FLOOR = 0.05
LEXICAL_WEIGHT = 0.15
# The semantic modes: cosine of sentence vectors. Related question/fact pairs score ~0.3-0.7,
# unrelated ones ~0.0-0.2; recall's threshold moves with the prompt (see gate.py).
SEMANTIC_NOISE_FLOOR = 0.1
# Once a prompt's best memory passes the gate, the others join it down to the gate's threshold
# less COMPANION_MARGIN (a question's second fact often scores a little under the gate: "what's
# the weather in my city?" needs "User lives in Oslo" at 0.31 beside "User hates rain" at 0.37,
# gate 0.33) but not below CONTEXT_RATIO of the best (a personal question's gate sits near 0,
# where every fact about the person would follow).
COMPANION_MARGIN = 0.05
CONTEXT_RATIO = 0.6
# State search ranks rather than gates: it leaves out records below a loose likeness (a made-up
# word scores ~0.15 against anything) and those far below the best one.
STATE_FLOOR = 0.2
STATE_RELATIVE = 0.35
HYBRID_WEIGHT = 0.2
# A superseded fact scores at most this share of its superseder's score.
SUPERSEDED_RATIO = 0.98
# Importance (0..1, set by writes and moved by feedback) scales a score by at most this share
# either way; 0.5, and a fact whose importance was never set, leave it as it is.
IMPORTANCE_WEIGHT = 0.2
NEUTRAL_IMPORTANCE = 0.5
# bm25 mode: a fact whose BM25 is BM25_HALF scores 0.5.
BM25_HALF = 3.0
# A memory said on the days a question names ("what did I do last week?") gains this share of
# what it lacks of a perfect score, as the lexical boost does: enough to pass memories of other
# days that match about as well, not one that matches clearly better. LoCoMo dev gains most from
# 0.3 to 0.45, less at 0.15 or 0.6; our chats the same from 0.3 on (docs/search.md).
WHEN_WEIGHT = 0.3


def said_then(scores: np.ndarray, days: np.ndarray, span: tuple[date, date]) -> np.ndarray:
    """``scores`` with the rows said within ``span`` (``days``: each row's ``domain.said_day``)
    raised by ``WHEN_WEIGHT``; the array itself when none was."""
    inside = (days >= span[0].toordinal()) & (days <= span[1].toordinal())
    if not inside.any():
        return scores
    out: np.ndarray = scores.copy()
    out[inside] += WHEN_WEIGHT * (1.0 - out[inside])
    return out


# The person's next turn after one that matches the prompt, said the same day, gains this share of
# what it lacks of that turn's score. It often holds the answer without naming the topic: after
# "The official opening night of my studio is tomorrow", "I'm excited! I'm feeling good and ready"
# is how they feel about it. LoCoMo dev and our chats gain most at 0.5 (0.3 less, 0.7 loses on
# dev: followers crowd out the matches); docs/search.md has the figures.
FOLLOW_WEIGHT = 0.5


def followed(
    scores: np.ndarray, rows: np.ndarray, turns: np.ndarray, kinds: np.ndarray, days: np.ndarray, leaders: int
) -> np.ndarray:
    """``scores`` (of index ``rows``; each row's turn, kind and day in ``turns``, ``kinds``,
    ``days``) with the turn after each of the ``leaders`` best rows' turn raised by
    ``FOLLOW_WEIGHT`` toward that row's score: the same person's next turn, on the same day, as
    kept verbatim. A turn's rows sit together in the index, in the order they were stored. Only a
    kept turn rises: facts stored without their turn each count as a turn of their own, and the
    second fact of "I'm vegan, and I moved to Oslo" is no answer to what the first one matched.
    Only the scores as given lead, so a lifted turn lifts no other; a row the coarse stage left
    out is not added."""
    count = min(leaders, len(scores))
    if count == 0:
        return scores
    size = len(turns)
    lifted: list[int] = []  # index rows of the turns after the leaders, each with its leader's score
    leads: list[float] = []
    for p in np.argpartition(-scores, count - 1)[:count].tolist():
        r = int(rows[p])
        if kinds[r] == UNKNOWN:
            continue
        turn, day, j = turns[r], days[r], r + 1
        while j < size and turns[j] == turn:
            j += 1
        if j == size or kinds[j] == UNKNOWN or days[j] != day:
            continue
        follower = turns[j]
        while j < size and turns[j] == follower:
            if kinds[j] == TURN:
                lifted.append(j)
                leads.append(float(scores[p]))
            j += 1
    if not lifted:
        return scores
    where = np.array(lifted, dtype=np.int64)
    lead = np.array(leads, dtype=scores.dtype)
    if len(rows) != size:  # the coarse stage's rows: find each follower among them, if it is
        order = np.argsort(rows)
        at = np.minimum(np.searchsorted(rows[order], where), len(rows) - 1)
        kept = rows[order][at] == where
        where, lead = order[at][kept], lead[kept]
    base = scores[where]
    out: np.ndarray = scores.copy()
    np.maximum.at(out, where, np.where(lead > base, base + FOLLOW_WEIGHT * (lead - base), base))
    return out


def boosted(
    index: UserIndex,
    query: np.ndarray,
    rows: np.ndarray,
    scores: np.ndarray,
    lexical: list[tuple[int, float]],
    weight: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raise lexical matches by a bounded BM25 boost: ``cos + weight * bm25/best * (1 - cos)``.
    Matches the coarse stage left out are scored exactly and added. (rows, boosted scores, the
    scores before the boost)."""
    best = max(b for _, b in lexical) or 1.0
    fact_ids = np.array([i for i, _ in lexical], dtype=np.int64)
    boost = np.array([weight * max(b, 0.0) / best for _, b in lexical], dtype=np.float32)
    where, ok = index.positions(fact_ids)
    where, boost = where[ok], boost[ok]
    if len(rows) == len(index.ids):
        # Every row was scored, in order (an exact scan): each match is scored where it sits.
        at = where
    else:
        # ``rows`` ascend (the coarse stage's candidates, sorted): matches are found by binary
        # search, and the ones it left out are scored and merged in, keeping the order.
        at, scored = in_sorted(rows, where)
        missing = np.unique(where[~scored])
        if len(missing):
            rows = np.concatenate([rows, missing])
            scores = np.concatenate([scores, np.clip(best_dot(index.matrix[missing], query), 0.0, 1.0)])
            order = np.argsort(rows, kind="stable")
            rows, scores = rows[order], scores[order]
            at, _ = in_sorted(rows, where)
    likeness = scores
    scores = scores.copy()
    scores[at] = scores[at] + boost * (1.0 - scores[at])
    return rows, scores, likeness


def weighted_by_importance(
    ids: np.ndarray, scores: np.ndarray, known: np.ndarray, values: np.ndarray
) -> np.ndarray:
    """``scores`` of the facts ``ids`` times ``1 + IMPORTANCE_WEIGHT * (importance - 0.5)``, kept
    within [0, 1], for the facts ``known`` with importances ``values``: an important fact rises a
    little, an unimportant one sinks a little, and a fact without importance (the usual case)
    keeps its score."""
    if len(known) == 0 or len(ids) == 0:
        return scores
    at, found = locate(ids, known)
    if not found.any():
        return scores
    at, factor = at[found], 1.0 + IMPORTANCE_WEIGHT * (values[found] - NEUTRAL_IMPORTANCE)
    scores = scores.copy()
    scores[at] = np.clip(scores[at] * factor, 0.0, 1.0)
    return scores


def below_superseders(ids: np.ndarray, scores: np.ndarray, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """A superseded fact ranks just below the fact that superseded it whenever both are ranked:
    the newer fact states the current value of what the older one answered, so it takes the
    older one's score if that is higher, and the older one keeps SUPERSEDED_RATIO of it.
    ``old`` (ascending) and ``new`` pair each superseded fact with its superseder."""
    # Only the ranked facts are looked up, not every superseded pair of the user.
    at, is_old = in_sorted(old, ids)
    i = np.flatnonzero(is_old)
    j, has_new = locate(ids, new[at[i]])
    i, j = i[has_new], j[has_new]
    scores = scores.copy()
    # Several older facts can share one superseder: it takes the best of their scores.
    np.maximum.at(scores, j, scores[i])
    scores[i] = np.minimum(scores[i], scores[j] * SUPERSEDED_RATIO)
    return scores


# People say the same thing in many sessions ("still looking into counseling jobs"), so five
# places can go to one statement made five times while the question needed something else too.
# A memory this close (cosine) to one ranked above it, from another turn, loses
# REDUNDANT_WEIGHT of the excess: a near-repeat at 0.9 loses 0.15, a related fact at 0.6 nothing.
# On LoCoMo dev hit@5 0.704 -> 0.719 (weights 0.5-1.0 from 0.6 all gain 0.015-0.021; from 0.4
# it loses); own sets unchanged.
REDUNDANT_FROM = 0.6
REDUNDANT_WEIGHT = 0.5


def diversified(
    scores: list[float], vectors: np.ndarray, turns: list[int], k: int
) -> list[tuple[int, float]]:
    """Memories ranked best first (their ``scores``, ``vectors`` and the ``turns`` they came from)
    reordered greedily until ``k`` turns lead: each next memory is the best once its likeness to
    those already taken is charged (maximal marginal relevance with a threshold). The rest follow,
    charged against those. Members of one turn are not charged for each other: they take one
    place anyway (turns.one_per_turn). (position, charged score) pairs, scores descending."""
    count = len(scores)
    if count < 2:
        return [(i, score) for i, score in enumerate(scores)]
    # What taking each memory charges each other one, worked out once: the loop then only takes
    # maxima (a charge grows with the likeness, so the likest memory taken sets it).
    charges = np.asarray(vectors @ vectors.T, dtype=np.float64)
    charges -= REDUNDANT_FROM
    np.maximum(charges, 0.0, out=charges)
    charges *= REDUNDANT_WEIGHT
    group = np.asarray(turns)
    charges[group[:, None] == group[None, :]] = 0.0
    base = np.array(scores, dtype=np.float64)
    charge = np.zeros(count)
    charged = base.copy()
    waiting = base.copy()  # ``charged``, with -inf for the memories taken
    order: list[int] = []
    charged_at: list[float] = []
    leading: set[int] = set()
    while len(leading) < k and len(order) < count:
        i = int(np.argmax(waiting))
        order.append(i)
        charged_at.append(float(charged[i]))
        leading.add(turns[i])
        np.maximum(charge, charges[i], out=charge)
        np.subtract(base, charge, out=charged)
        np.copyto(waiting, charged)
        waiting[order] = -np.inf
    rest = np.flatnonzero(waiting > -np.inf)
    rest = rest[np.argsort(-charged[rest], kind="stable")]
    order.extend(int(i) for i in rest)
    charged_at.extend(float(charged[i]) for i in rest)
    return [(i, round(max(score, 0.0), 6)) for i, score in zip(order, charged_at, strict=True)]


def companion_threshold(gate: float, best: float) -> float:
    """The score the other memories need once the best one (``best``) passed the gate."""
    return max(gate - COMPANION_MARGIN, CONTEXT_RATIO * best)


def cosine_rank(
    embedder: Embedder,
    query: str,
    items: Iterable[StateRow],
    *,
    floor: float = NOISE_FLOOR,
    relative: float = 0.0,
) -> list[tuple[float, StateRow]]:
    """Scores state rows (read with their vectors) against ``query``; non-indexed rows by word
    overlap. Indexed rows whose vector came from another embedder are embedded afresh. Rows
    scoring below ``floor`` or below ``relative`` times the best score are left out."""
    items = list(items)
    q = embedder.embed([query])[0]
    vectors = {item.id: item.vector for item in items}
    stale = [item for item in items if item.indexed and (item.vector is None or item.vector.shape != q.shape)]
    if stale:
        vectors.update(zip((i.id for i in stale), embedder.embed([i.text for i in stale]), strict=True))
    words = {stem(w) for w in content_words(query)}
    ranked = []
    for item in items:
        vector = vectors[item.id]
        if item.indexed and vector is not None:
            score = float(np.clip(vector @ q, 0.0, 1.0))
            keep = score >= floor
        else:
            have = {stem(w) for w in content_words(item.text)}
            score = len(words & have) / len(words) if words else 0.0
            keep = score >= NOISE_FLOOR
        if keep:
            ranked.append((round(min(score, 1.0), 6), item))
    ranked.sort(key=lambda pair: (-pair[0], pair[1].id))
    if ranked and relative:
        ranked = [pair for pair in ranked if pair[0] >= relative * ranked[0][0]]
    return ranked
