"""Fact extraction behind the ``Extractor`` protocol; the default is deterministic and local.

``RuleExtractor`` keeps durable statements about the person, one fact per statement, in the
third person: "I'm vegan, and I moved to Oslo" -> "User is vegan", "User moved to Oslo";
already distilled facts ("User is vegan") are kept as they are. Questions, greetings, filler
and requests to the assistant give nothing. An LLM-backed extractor can implement the same
protocol later.
"""

from __future__ import annotations

import re
from typing import Protocol, runtime_checkable


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


FILLER_WORDS = _wordset(
    """and or but so then also plus like well ok okay kk k yes yeah yep yup no nope nah sure right fine good
    cool nice great awesome perfect exactly really totally indeed alright done wow oops whoops hi hello hey yo
    bye goodbye thanks thank you please welcome morning evening night um uh umm uhh hmm hm huh oh ah er haha
    hehe lol what why how when where who which the a an it this that me my"""
)
_LOW_VALUE_WORD = re.compile(r"[a-z']+")


def is_low_value(text: str) -> bool:
    """Contract §3.1 step 3: no letter, at most one word, or two words that are both filler."""
    if not any(ch.isalpha() for ch in text):
        return True
    words = _LOW_VALUE_WORD.findall(text.lower())
    if len(words) <= 1:
        return True
    return len(words) == 2 and all(w in FILLER_WORDS for w in words)


@runtime_checkable
class Extractor(Protocol):
    """Durable facts in ``text``. ``explicit`` is True when the caller asked to store it (``/memory/add``)."""

    def extract(self, text: str, *, explicit: bool = False) -> list[str]: ...


_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\n+")
# Split "X, and I Y" / "X but my Y" into clauses only where a new first-person statement starts.
_CLAUSES = re.compile(
    r"\s*(?:,\s*(?:and|but|also|plus)?|\s(?:and|but|plus)\s(?:also\s)?)\s*(?=(?:i|i'm|im|i've|i'd|i'll|my|we|we're|our)\b)",
    re.IGNORECASE,
)
_QUESTION_START = re.compile(
    r"^(?:what|what's|whats|why|how|when|where|who|whom|whose|which|is|are|am|was|were|do|does|did|can|could|"
    r"would|will|should|shall|may|might|have|has|had|isn't|aren't|don't|doesn't|didn't|won't|wouldn't|"
    r"shouldn't|couldn't)\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^(?:please\b|pls\b|kindly\b|let's\b|lets\b|let\s+me\b|go\s+ahead\b|"
    r"i\s+(?:want|need|would\s+like|'d\s+like)\s+you\b|i'd\s+like\s+you\b|"
    r"(?:book|find|tell|show|give|help|summari[sz]e|explain|write|make|send|remind|search|check|list|get|"
    r"set|create|translate|recommend|suggest|order|call|schedule|draft|plan|look|add|remove|delete|update|"
    r"compute|calculate|generate|describe|compare|buy|reserve|cancel|open|close|start|stop|run|fix|"
    r"try|continue|repeat|answer|read|note|save|remember|forget|use)\b)",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"^(?:hi|hello|hey|yo|good\s+(?:morning|afternoon|evening|night)|thanks|thank\s+you|thx|cheers|bye|"
    r"goodbye|see\s+you|welcome|sorry|ok|okay|sure|great|cool|nice|awesome|perfect|lol|haha)\b[\s!.,]*",
    re.IGNORECASE,
)
_THIRD_PERSON = re.compile(r"^(?:the\s+)?user(?:'s)?\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"^(?:i|i'm|im|i've|i'd|i'll|my|mine|me)\b", re.IGNORECASE)

_SUBJECT_FORMS = (
    (re.compile(r"^i\s+am\s+not\b|^i'm\s+not\b|^im\s+not\b", re.I), "User is not"),
    (re.compile(r"^i\s+am\b|^i'm\b|^im\b", re.I), "User is"),
    (re.compile(r"^i\s+have\s+not\b|^i\s+haven't\b|^i've\s+not\b", re.I), "User has not"),
    (re.compile(r"^i\s+have\s+got\b|^i've\s+got\b", re.I), "User has"),
    (re.compile(r"^i\s+have\b|^i've\b", re.I), "User has"),
    (re.compile(r"^i\s+would\b|^i'd\b", re.I), "User would"),
    (re.compile(r"^i\s+will\b|^i'll\b", re.I), "User will"),
    (re.compile(r"^i\s+was\b", re.I), "User was"),
    (re.compile(r"^i\s+(?:do\s+not|don't|dont)\b", re.I), "User does not"),
    (re.compile(r"^i\s+(?:did\s+not|didn't)\b", re.I), "User did not"),
    (re.compile(r"^i\s+(?:cannot|can't|can\s+not)\b", re.I), "User cannot"),
    (re.compile(r"^my\b", re.I), "User's"),
)
_ADVERBS = _wordset(
    "always usually often never sometimes rarely really also still just mostly generally normally typically "
    "definitely actually recently currently mainly only totally absolutely strongly"
)
_MODALS = _wordset("can could should must might may will would shall")
_IRREGULAR_PAST = _wordset(
    "was were went had did got made took saw came bought left met ran began grew wrote lived became brought "
    "built caught chose drove fell felt found flew forgot gave heard kept knew led lost paid put quit read "
    "said sold sent set sat slept spent spoke stood taught told thought understood won wore"
)
_IRREGULAR_3RD = {"be": "is", "have": "has", "do": "does", "go": "goes"}
_OBJECT_PRONOUNS = (
    (re.compile(r"\bmyself\b", re.I), "themselves"),
    (re.compile(r"\bmine\b", re.I), "theirs"),
    (re.compile(r"\bmy\b", re.I), "their"),
    (re.compile(r"\bme\b", re.I), "them"),
    (re.compile(r"\bI'm\b"), "they are"),
    (re.compile(r"\bI\b"), "they"),
)


def _third_person_verb(verb: str) -> str:
    lower = verb.lower()
    if lower in _MODALS or lower in _IRREGULAR_PAST or lower.endswith("ed"):
        return verb
    if lower in _IRREGULAR_3RD:
        return _IRREGULAR_3RD[lower]
    if re.search(r"(?:s|sh|ch|x|z|o)$", lower):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    return verb + "s"


def _to_third_person(clause: str) -> str | None:
    for pattern, replacement in _SUBJECT_FORMS:
        m = pattern.match(clause)
        if m:
            rest = clause[m.end() :]
            return replacement + _swap_pronouns(rest)
    m = re.match(r"^i\s+(.*)$", clause, re.I | re.S)
    if not m:
        return None
    words = m.group(1).split()
    out = []
    conjugated = False
    for word in words:
        if not conjugated and word.lower() not in _ADVERBS:
            word = _third_person_verb(word)
            conjugated = True
        out.append(word)
    if not conjugated:
        return None
    return "User " + _swap_pronouns(" ".join(out))


def _swap_pronouns(text: str) -> str:
    for pattern, replacement in _OBJECT_PRONOUNS:
        text = pattern.sub(replacement, text)
    return text


def _clean(clause: str) -> str:
    return clause.strip().strip(" ,;:-–—").rstrip(".!").strip()


class RuleExtractor:
    """Deterministic rules; see the module docstring for what is kept and what is dropped."""

    def extract(self, text: str, *, explicit: bool = False) -> list[str]:
        facts: list[str] = []
        for sentence in _SENTENCES.split(text.strip()):
            sentence = sentence.strip()
            if not sentence or sentence.endswith("?"):
                continue
            sentence = _GREETING.sub("", sentence).strip()
            for raw in _CLAUSES.split(sentence):
                fact = self._clause(raw, explicit=explicit)
                if fact and fact not in facts:
                    facts.append(fact)
        return facts

    def _clause(self, raw: str, *, explicit: bool) -> str | None:
        clause = _clean(raw)
        if not clause or is_low_value(clause) or clause.endswith("?"):
            return None
        if _QUESTION_START.match(clause) or _REQUEST.match(clause):
            return None
        if re.match(r"^i\s+(?:want|need|would\s+like)\s+(?:you|to\s+know\s+what|to\s+ask)\b", clause, re.I):
            return None
        if _THIRD_PERSON.match(clause):
            fact = re.sub(r"^the\s+user", "User", clause, flags=re.I)
            return fact[0].upper() + fact[1:]
        if _FIRST_PERSON.match(clause):
            fact = _to_third_person(clause)
            return fact if fact and len(fact) >= 2 else None
        if explicit and len(clause) >= 2:
            # An explicit save ("Allergic to peanuts") is about the user even without a subject.
            return clause[0].upper() + clause[1:]
        return None
