"""What a fact's "it" stands for, read from the turn and the question just before it.

"I sent it off last week" answers "How is your novel manuscript going?": alone, "User sent it
off" has lost what it is about, and a fact without its topic ranks below every fact that has
one. The thing is the nearest singular noun phrase, with its determiner, in the sentence just
before, or in the question the turn answers. Anything further was wrong more often than right
on our chats ("I drove up to see them" is not about "the god" of "oh my god"), so nothing
further is tried: nothing fits, nothing changes. A wrong thing is worse than none: "User loves
support" is a false memory where "User loves it" is only a vague one. So "them" is left as it
is (in chat it is mostly people, whom no phrase nearby names: on the LoCoMo dev split four in
five were read as the wrong thing), and so is a bare noun ("The kids love nature. I'll never
forget it").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ..language.scripts import CAPITALISED
from .someone import PEOPLE, name_from, unnamed
from .third_person import is_adjective, noun_number

__all__ = ["resolve_referents", "stands_alone"]

# "it" as the object of a verb or a preposition (after a word, not after a comma or a
# conjunction, where "it" starts a clause of its own: "coriander, it tastes like soap").
_PRONOUN = re.compile(r"\b(it)\b(?!\s*(?:['’](?:s|ll|d|ve)|is|was|has|will|would)\b)")
# The word a text ends on (spaces after it aside); a match starts only where a word does, so a
# long run of quotes is read once, not once from each of them.
_LAST_WORD = re.compile(r"(?<![A-Za-z'])[A-Za-z']+$")
_OPENS_CLAUSE = frozenset(
    [
        "and",
        "but",
        "so",
        "or",
        "because",
        "cause",
        "when",
        "if",
        "that",
        "as",
        "since",
        "while",
        "though",
        "although",
        "where",
        "user",
    ]
)
_IDIOM = re.compile(
    r"\b(?:make|made|making|makes|get|got|gets|getting|take|took|takes|taking|nail|nailed|love|loved|loves|"
    r"hate|hated|hates|like|liked|likes)\s+it\s+(?:here|there|work|happen|easy|through|anymore|up)\b"
    r"|\b(?:made|make|makes|making)\s+it(?:\s*$|\s+(?:to|on\s+time|in\s+time)\b)"
    r"|\bit\s+(?:all|together|out\s+of)\b|\bof\s+it\s+all\b|\bgo(?:es|ing)?\s+for\s+it\b|\bwent\s+for\s+it\b"
    r"|\b(?:love|loved|loves|like|liked|likes|hate|hated|hates)\s+it\s+when\b"  # "loved it when she shouted"
    r"|\b(?:overdo|overdid|overdoing|overdone)\s+it\b|\b(?:make|made|making)\s+it\s+(?:if|as|work)\b"
    # "worth it", "dance it out", "figure it out": nothing is named by these.
    r"|\bworth\s+it\b|\b(?:danc|work|figur|sort|talk|walk|sweat|tough|wing|hash|play)\w*\s+it\s+out\b",
    re.IGNORECASE,
)
# Saying how one feels about a thing: "I love curry", "my husband hates it".
_LIKING = re.compile(
    r"\b(?:love|loves|loved|loving|like|likes|liked|hate|hates|hated|enjoy|enjoys|enjoyed|adore|adores|"
    r"adored|prefer|prefers|preferred|dislike|dislikes|disliked|can't\s+stand|cannot\s+stand)\b",
    re.IGNORECASE,
)
# "do it", "get it", "mean it": the verb says too little to pick the thing from a phrase nearby.
_VAGUE_VERB = re.compile(r"\b(?:do|did|doing|done|does|mean|meant|get|got|gets)\s+it\b", re.IGNORECASE)
_PHRASE = re.compile(
    r"\b(?P<det>the|a|an|that|this|these|those|my|your|his|her|our|their)\s+"
    # read ahead, not taken: "the kids to the museum" holds "the museum" too
    r"(?=(?P<words>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3}))"
)
# Nouns too vague to be what a fact is about.
_VAGUE = frozenset(
    [
        "time",
        "times",
        "thing",
        "things",
        "lot",
        "lots",
        "bit",
        "way",
        "ways",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "moment",
        "stuff",
        "one",
        "ones",
        "kind",
        "sort",
        "idea",
        "ideas",
        "question",
        "questions",
        "chat",
        "fun",
        "bunch",
        "minute",
        "minutes",
        "night",
        "nights",
        "morning",
        "mornings",
        "evening",
        "weekend",
        "end",
        "rest",
        "part",
        "same",
        "other",
        "others",
        "kinds",
        "sorts",
        "type",
        "types",
        "deal",
        "news",
        "reason",
        "feeling",
        "feelings",
        "experience",
        "moments",
        "memories",
        "memory",
        "life",
        "world",
        "people",
        "guy",
        "guys",
        "folks",
    ]
)
_OWN = {"my": "their", "our": "their"}
_NOT_IN_PHRASE = frozenset(
    [
        "the",
        "a",
        "an",
        "that",
        "this",
        "these",
        "those",
        "my",
        "your",
        "his",
        "her",
        "our",
        "their",
        "its",
        "still",
        "just",
        "really",
        "so",
        "very",
        "too",
        "also",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "am",
        "i",
        "you",
        "he",
        "she",
        "it",
        "we",
        "they",
        "me",
        "him",
        "us",
        "them",
        "and",
        "or",
        "but",
        # time words the lexicon also lists as nouns: "the museum yesterday" is "the museum"
        "yesterday",
        "today",
        "tonight",
        "tomorrow",
        "last",
        "next",
        "ago",
        "now",
    ]
)


# A noun with no determiner that ends a sentence or a clause: "I love curry." / "... curry, and".
_BARE_NOUN = re.compile(
    r"\b(?!(?:it|them|that|this|there|here|too|so|now|again)\b)([a-z]{3,})\s*(?:[.!?,;]|\band\b)"
)


class _Named(NamedTuple):
    """A thing a text names: as a fact would say it, its number ("singular" or "plural"), and
    whether it is where something was ("in my home country") rather than what."""

    phrase: str
    number: str
    placed: bool = False


def _bare_nouns(text: str) -> list[_Named]:
    out = []
    for m in _BARE_NOUN.finditer(text):
        number = noun_number(m.group(1))
        if number is not None and m.group(1) not in _VAGUE and m.group(1) not in _NOT_IN_PHRASE:
            out.append(_Named(m.group(1), number))
    return out[::-1]


# A phrase after these is where something is or came from.
_PLACED = re.compile(r"\b(?:in|at|from|near|inside|outside|around)\s+$", re.IGNORECASE)


def _phrases(text: str, *, own: bool) -> list[_Named]:
    """Each noun phrase of ``text``, last first: a determiner, then words up to the last of the
    first run of nouns ("that adoption agency", "a gorgeous bowl"), within four words."""
    out = []
    for m in _PHRASE.finditer(text):
        words = m["words"].split()
        # "the kids to the museum": the phrase ends where a word no phrase holds begins
        words = words[: next((i for i, w in enumerate(words) if w.lower() in _NOT_IN_PHRASE), len(words))]
        kinds = [noun_number(w.lower()) for w in words]
        # A word that is an adjective too heads a phrase only where the phrase ends: "our
        # community safe" is "our community", "a chill pic" (a word the lexicon lacks) nothing.
        either = [is_adjective(w.lower()) for w in words]
        first = next(
            (
                i
                for i, kind in enumerate(kinds)
                if kind is not None and not (either[i] and i + 1 < len(words))
            ),
            None,
        )
        if first is None:
            continue
        last = first
        while last + 1 < len(words) and kinds[last + 1] is not None and _nominal(last + 1, kinds, either):
            last += 1
        head = words[last].lower()
        if head in _VAGUE:
            continue
        det = m["det"].lower()
        det = _OWN.get(det, "the") if own else "the"
        placed = bool(_PLACED.search(text[max(0, m.start() - 12) : m.start()]))
        out.append(_Named(" ".join([det, *words[: last + 1]]), str(kinds[last]), placed))
    return out[::-1]


# "there" after going or living: where to, or where.
_THERE = re.compile(
    r"\b(?P<verb>(?:go|goes|going|went|gone|fly|flies|flying|flew|flown|travel\w*|head\w*|mov\w*|"
    r"drive|drives|driving|drove|return\w*|com(?:e|es|ing)|came|back|live|lives|living|lived|stay\w*|"
    r"work|works|working|worked))\s+there\b"
)
_TO = re.compile(
    r"^(?:go|goes|going|went|gone|fly|flies|flying|flew|flown|travel|head|mov|drive|drove|return|com|came|back)"
)
# A place named in a sentence: a capitalised name after a preposition ("back from Osaka").
_PLACE = re.compile(
    rf"\b(?:from|to|in|at|near|around|visit|visiting|visited)\s+(?P<place>{CAPITALISED}(?:\s+{CAPITALISED})?)"
)


def _there(fact: str, turn: str) -> str:
    """ "User is flying there next month" after "I'll rent one when I'm back from Osaka": the
    place the sentence just before names (its last), "to" it after going, "in" it after living."""
    m = _THERE.search(fact)
    if m is None:
        return fact
    before = _before_fact(turn, fact)[:1]
    places = [p["place"] for p in _PLACE.finditer(before[0])] if before else []
    if not places or places[-1] in ("User", "I"):
        return fact
    link = "to" if _TO.match(m["verb"].lower()) else "in"
    return f"{fact[: m.end('verb')]} {link} {places[-1]}{fact[m.end() :]}"


def resolve_referents(fact: str, turn: str, context: Sequence[str] = ()) -> str:
    """``fact`` with an "it" that stands for a thing replaced by that thing, when the
    turn before the fact's words (``turn`` up to its first clause), or ``context`` (the turns
    before it, nearest last), names one that fits; a "there" after going or living, by the place
    the sentence before names."""
    if unnamed(fact):
        # "He is an architect" after "What does Rui do?": the person the turn before names.
        told_of = name_from(fact, context[-1], context[-2] if len(context) > 1 else None) if context else None
        if told_of is None:
            return fact
        fact = told_of
    fact = _there(fact, turn)
    m = next((m for m in _PRONOUN.finditer(fact) if _is_object(fact[: m.start()])), None)
    if m is None or _IDIOM.search(fact) or _VAGUE_VERB.search(fact):
        return fact
    wanted = "singular"
    earlier, joint, clause = fact[: m.start()].rpartition(";")
    if _named_in(clause, wanted):
        # "User helped with the painting - great bonding over it": the fact names its thing.
        return fact
    liking = bool(_LIKING.search(clause))
    if joint:
        # "User loves curry; User's husband hates it", "User ordered a new petcock; User is
        # waiting for it to arrive": a clause joined to the one before it (extract._lacks_topic)
        # goes on about the thing that one names (a bare noun only when both are likings).
        named = _phrases(earlier, own=True) + (_bare_nouns(earlier.rstrip() + ".") if liking else [])
        thing = _best(named, wanted)
        if thing:
            return fact[: m.start()] + thing + fact[m.end() :]
    # The sentence of the turn just before the one the fact's clause retells comes first ("I
    # found a great studio space. I signed for it today"), then the question just before the turn
    # ("What made you pick that agency?"): anything further is too often the wrong thing.
    own_clause = fact[len(earlier) + len(joint) :] if joint else fact
    sources = [(sentence, True) for sentence in _before_fact(turn, own_clause)[:1]]
    if context and context[-1].rstrip().endswith("?"):
        sources.append((context[-1], False))
    for text, own in sources:
        if own and _GOES_ON_ABOUT_IT.search(text):
            # "It sat in a garage, so I towed it home. I'm going to restore it": the sentence
            # before goes on about a thing it only calls "it", and so does the fact.
            break
        # Only a phrase with its determiner: a bare noun ending a sentence ("The kids love
        # nature. I'll never forget it", "Gotta focus on success.") was the thing meant in fewer
        # than one case in five on the dev split ...
        found = _phrases(text, own=own)
        if own and liking and _LIKING.search(text):
            # ... unless a liking answers a liking: "I love curry. My husband hates it."
            found += _bare_nouns(text.rstrip() + ".")
        phrase = _best(found, wanted)
        if phrase:
            return fact[: m.start()] + phrase + fact[m.end() :]
    return fact


def _best(found: list[_Named], wanted: str) -> str | None:
    """The phrase of ``found`` (nearest first) an "it" stands for: of ``wanted`` number, never a
    person ("I'll record it for her" after "Has your mom heard it?" is not the mom), and a place
    named after "in" or "from" only when nothing else fits ("a gift from my grandma in my home
    country. She gave it to me" gave the gift, not the country)."""
    fits = [named for named in found if named.number == wanted and not _PERSON.search(named.phrase)]
    return next((named.phrase for named in fits if not named.placed), fits[0].phrase if fits else None)


# Who an "it" never stands for.
_PERSON = re.compile(
    rf"\b(?:{PEOPLE}|people|kids|family|friends|parents|folks)$",
    re.IGNORECASE,
)


def _nominal(i: int, kinds: list[str | None], either: list[bool]) -> bool:
    """Whether the ``i``-th word of a phrase goes on its run of nouns: a noun, or an adjective too
    when a noun follows it ("banana split sundae", but not "our community safe")."""
    if not either[i]:
        return True
    return i + 1 < len(kinds) and kinds[i + 1] is not None and not either[i + 1]


def _named_in(text: str, number: str | None = None) -> bool:
    """Whether ``text`` names a thing (of ``number``, "singular" or "plural", when given)."""
    return any(number in (None, named.number) for named in _phrases(text, own=True) + _bare_nouns(text))


def _is_object(before: str) -> bool:
    """Whether a pronoun after ``before`` is the object of a verb or a preposition: it follows a
    word, not a comma or a conjunction, where "it" starts a clause of its own ("coriander, it
    tastes like soap")."""
    m = _LAST_WORD.search(before.rstrip())
    return m is not None and m.group(0).lower() not in _OPENS_CLAUSE


_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
_JOINED = re.compile(r";|,\s+which\b|\s+-\s+")
# "it" as a subject or an object, not the "it's" that only opens a sentence ("It's amazing how ...").
_GOES_ON_ABOUT_IT = re.compile(r"\bit\b(?!\s*(?:['’]s|is)\b)", re.IGNORECASE)
_DASHED = re.compile(r"\s+[-\u2013\u2014]+\s+")


def _before_fact(turn: str, fact: str) -> list[str]:
    """The sentences of ``turn`` before the one ``fact`` retells (the one sharing the most words
    with it), nearest first."""
    # A dash parts what a turn says as a full stop does ("My favourite is the sundae - I enjoy it
    # after work"), as the extractor reads it.
    sentences = [p.strip() for s in _SENTENCE.findall(turn) for p in _DASHED.split(s) if p.strip()]
    # The fact's own clause, not what it was joined with ("User enjoys it after work, which is a
    # little moment of joy" retells "I enjoy it after work", not "It's a little moment of joy").
    head = _JOINED.split(fact, maxsplit=1)[0]
    fact_words = set(re.findall(r"[a-z]{4,}", head.lower()))
    shared = [len(fact_words & set(re.findall(r"[a-z]{4,}", s.lower()))) for s in sentences]
    if not any(shared):
        return []
    # The sentence sharing the most words, the first of equals: "We love it, it brings us closer"
    # retells the fourth sentence of a turn whose second says "Unconditional love is so important".
    best = shared.index(max(shared))
    return sentences[:best][::-1]


# What a fact cannot stand on without the turn it came from: an object pronoun for a thing or a
# person never named in the fact, or "there" for a place it never names.
_LEFT_OPEN = re.compile(r"\b(there|that)\s*$|\b(it|him)\b", re.IGNORECASE)
_NAMED = re.compile(rf"(?<!^)\b(?!User\b){CAPITALISED}")


def stands_alone(fact: str) -> bool:
    """Whether ``fact`` is about something it names: no "it" or "him" as an object, and no
    "there"/"that"/"them"/"her" ending it ("User will send it", "User held him for an hour",
    "User has been unhappy there"). A fact that does not stand alone is a fragment: the turn it
    came from is the better memory."""
    for m in _LEFT_OPEN.finditer(fact):
        before = fact[: m.start()]
        if not _is_object(before) or _IDIOM.search(fact):
            continue
        # "User has a dog and walks him", "User read that book and loved it": named before.
        if _named_in(before) or _NAMED.search(before):
            continue
        return False
    return True
