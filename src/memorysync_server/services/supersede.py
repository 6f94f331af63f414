"""Which single-valued attribute a fact states, so a newer fact about it supersedes an older one.

A person lives in one place, works for one employer, has one partner and one favourite band at a
time: when "User moved to Bergen" arrives after "User moved to Oslo", both rows stay, the older
one is marked ``superseded_by`` and ranks below the newer one. Facts that can hold many values
at once ("User has a dog", "User speaks French") state no attribute and never supersede.
"""

from __future__ import annotations

import re
from typing import Protocol

import numpy as np

from ..language.scripts import UPPER
from ..retrieval.turns import turn_of
from ..storage import Storage

# (attribute, pattern over the third-person fact). Patterns look at the fact's predicate, so
# "User's brother lives in Toronto" is about the brother and is not the user's residence.
_ATTRIBUTES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        (
            "residence",
            r"^user\s+(?:\w+ly\s+|now\s+|just\s+|has\s+)*(?:lives?|living|moved|relocated|is\s+(?:now\s+)?"
            r"(?:living|based|located)|settled)\b(?:\s+(?:back\s+)?(?:in|to|into)\b)"
            r"|^user\s+(?:\w+ly\s+|now\s+|just\s+)*rents\s+(?:a|an)\b",
        ),
        (
            "work",
            r"^user\s+(?:\w+ly\s+|now\s+|just\s+|has\s+)*(?:works?|working|worked|is\s+(?:now\s+)?"
            r"(?:working|employed))\s+(?:at|for)\b|^user\s+(?:\w+ly\s+|now\s+|just\s+|has\s+)*"
            r"(?:started|joined|began|got|took)\s+(?:a\s+(?:new\s+)?(?:job|position|role)|working)\s+(?:at|with|for)\b"
            r"|^user's\s+(?:new\s+)?(?:employer|company|workplace)\s+is\b",
        ),
        (
            "work",
            r"^user\s+(?:\w+ly\s+|now\s+|just\s+)*(?:works|is\s+(?:now\s+)?working)\s+as\b"
            r"|^user's\s+(?:new\s+)?(?:job|occupation|profession|role|title)\s+is\b",
        ),
        (
            "partner",
            r"^user\s+(?:\w+ly\s+|now\s+|just\s+|has\s+)*(?:is\s+)?(?:got\s+)?(?:married|engaged|dating)\b"
            r"|^user's\s+(?:new\s+)?(?:wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?)\s+is\s+"
            r"(?:now\s+)?(?:called|named)\b",
        ),
    )
)
# "User's favourite band is Radiohead" / "User's favorite food is now sushi": one per subject.
_FAVOURITE = re.compile(
    r"^user's\s+(?:new\s+)?(?:all[-\s]time\s+)?favou?rite\s+([a-z][a-z\s-]{0,40}?)\s+"
    r"(?:(?:these\s+days|now|at\s+the\s+moment|currently|right\s+now)\s+)?(?:is|are|has\s+become)\b",
    re.IGNORECASE,
)
# "User's wife is Maria" and "User's girlfriend Lena is a designer" name the partner; "User's wife
# is a surgeon" is about the wife.
_PARTNER_NAME = re.compile(
    r"^User's (?:new )?(?:wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?)"
    rf"(?: is (?:now )?{UPPER}[\w'-]*$|,? {UPPER}[\w'-]*\b)"
)
_POSSESSIVE = re.compile(r"^user's\s+((?:[a-z]+\s){0,2}[a-z]+)\s+(?:is|are)\s+", re.IGNORECASE)
# Single-valued things that "User's X is Y" can state. Relatives are left out on purpose: a
# person can have two brothers, and "User's brother is a doctor" says nothing about the other.
_POSSESSIVE_SINGLE = frozenset(
    (
        "name",
        "nickname",
        "age",
        "birthday",
        "email",
        "email address",
        "address",
        "phone number",
        "number",
        "phone",
        "mobile",
        "city",
        "hometown",
        "home",
        "country",
        "job",
        "employer",
        "company",
        "occupation",
        "profession",
        "role",
        "title",
        "salary",
        "budget",
        "diet",
        "car",
        "bank",
        "school",
        "university",
        "major",
        "goal",
        "timezone",
        "time zone",
        "gp",
        "doctor",
        "dentist",
        "therapist",
        "landlord",
    )
)
_ALIASES = {
    "home": "residence",
    "city": "residence",
    "company": "work",
    "employer": "work",
    "job": "work",
    "occupation": "work",
    "profession": "work",
    "role": "work",
    "title": "work",
    "gp": "doctor",
    "mobile": "phone number",
    "number": "phone number",
}


def attribute(fact: str) -> str | None:
    """The single-valued attribute ``fact`` states (``"residence"``, ``"favourite:band"``...), or None."""
    text = fact.strip()
    m = _FAVOURITE.match(text)
    if m:
        return "favourite:" + " ".join(m.group(1).lower().replace("-", " ").split())
    for name, pattern in _ATTRIBUTES:
        if pattern.search(text):
            return name
    if _PARTNER_NAME.match(text):
        return "partner"
    m = _POSSESSIVE.match(text)
    if m:
        subject = " ".join(m.group(1).lower().split())
        subject = re.sub(r"^(?:new|current|present)\s+", "", subject)
        if subject in _POSSESSIVE_SINGLE:
            return _ALIASES.get(subject, subject)
    return None


_CUES = {
    "residence": "lives live living moved relocated based located settled rents home city",
    "work": "works work working worked employed started joined began got took employer company workplace job "
    "occupation profession role title",
    "partner": "married engaged dating wife husband partner spouse girlfriend boyfriend fiance "
    "fiancee fiancé fiancée",
}


def cue_words(name: str) -> list[str]:
    """Exact words one of which every fact stating ``name`` contains (for a full-text lookup)."""
    if name.startswith("favourite:"):
        return ["favourite", "favorite"]
    words = _CUES.get(name, name).split()
    words += [word for alias, target in _ALIASES.items() if target == name for word in alias.split()]
    return list(dict.fromkeys(words))


# A fact that says something changed ("switched to", "has just upgraded", "no longer") updates
# the older fact most like it, even when no attribute rule names what changed. Words that say
# so outright need a loose likeness (cosine of sentence vectors); words that merely hint at the
# present ("now", "these days") need a close one.
CHANGE = re.compile(
    r"\b(?:switched|switching|upgraded|replaced|changed|swapped|moved|relocated|bought|sold|quit|stopped|"
    r"gave\s+up|given\s+up|no\s+longer|anymore|any\s+more|broke\s+up|brokes?\s+up|divorced|separated|"
    r"has\s+gone|have\s+gone|has\s+started|is\s+leaving|has\s+become)\b",
    re.IGNORECASE,
)
HINT = re.compile(r"\b(?:[Nn]ow|[Tt]hese\s+days|[Nn]owadays|[Cc]urrently|new|[Jj]ust)\b")
CHANGE_SIMILARITY = 0.33
HINT_SIMILARITY = 0.6


class Neighbours(Protocol):
    def nearest(
        self, tenant: str, user_id: str, vector: np.ndarray, *, before: int
    ) -> tuple[int, float] | None:
        """The most similar fact older than ``before`` (id, cosine), or None."""


class Superseder:
    """Marks the facts a new fact supersedes (``metadata.superseded_by``); see the module docstring."""

    def __init__(self, store: Storage, neighbours: Neighbours | None = None) -> None:
        self.store = store
        self.neighbours = neighbours

    def needs_vector(self, fact: str) -> bool:
        """Whether :meth:`fact_stored` compares ``fact``'s vector with older facts: only a fact
        that says something changed without naming an attribute does."""
        return (
            self.neighbours is not None
            and attribute(fact) is None
            and (CHANGE.search(fact) is not None or HINT.search(fact) is not None)
        )

    def fact_stored(self, tenant: str, user_id: str, fact_id: int, fact: str, vector: np.ndarray) -> None:
        """Called for each fact stored (or said again), inside the storing transaction."""
        changes: dict[int, int | None] = {}
        name = attribute(fact)
        if name is not None:
            candidates = self.store.lexical.match(tenant, user_id, cue_words(name), limit=500)
            for other in self.store.facts.get(tenant, user_id, [i for i, _ in candidates if i != fact_id]):
                if attribute(other.text) == name and other.metadata.get("superseded_by") != f"m_{fact_id}":
                    changes[other.id] = fact_id
        elif self.neighbours is not None and np.any(vector):
            needed = (
                CHANGE_SIMILARITY if CHANGE.search(fact) else HINT_SIMILARITY if HINT.search(fact) else None
            )
            nearest = (
                None if needed is None else self.neighbours.nearest(tenant, user_id, vector, before=fact_id)
            )
            if nearest is not None and needed is not None and nearest[1] >= needed:
                changes[nearest[0]] = fact_id
        current = self.store.facts.get(tenant, user_id, [fact_id]) if name is not None or changes else []
        if changes and current:
            # The turn a replaced fact was said in ranks below the new fact too, or the old words
            # would answer "where does she live now?" (never the new fact's own turn).
            own = turn_of(current[0])
            for old in self.store.facts.get(tenant, user_id, list(changes)):
                turn = turn_of(old)
                if turn not in (old.id, own):
                    changes.setdefault(turn, fact_id)
        if name is not None and current and "superseded_by" in current[0].metadata:
            # Said again: the fact is current again, whatever superseded it meanwhile.
            changes[fact_id] = None
        self.store.facts.set_superseded(tenant, user_id, changes)
