"""Facts about the people in a person's life, told with "he" or "she".

"How's your dad's knee? Did he see the doctor?" - "He did. He needs a knee replacement": the
person's own words never name their dad, yet "User's dad needs a knee replacement" is what a
later "What surgery did your dad need?" asks for. A sentence opening with "he" or "she" is
retold with the person it stands for when that is clear: the one person the turn named before it
("My sister Hana quit. She starts at the bakery in May"), or else the one person the turn just
before asked or told about ("What does Rui do?" - "He's an architect"). When two people could be
meant, or none, nothing is kept: a wrong person is a false memory, and "He is an architect" alone
says nothing of whom.

The extractor sees one turn (the ``Extractor`` protocol has no context), so a sentence whose
person only the turn before names leaves it as the bare pronoun (``unnamed``), and
``referents.resolve_referents`` names it from that turn; the pipeline drops what stays unnamed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..language.scripts import CAPITALISED
from ..language.words import STOPWORDS, wordset
from .third_person import is_past_participle, lexicon_knows, swap_pronouns

__all__ = [
    "PEOPLE",
    "Person",
    "name_from",
    "opens_with_someone",
    "people_in",
    "pronoun_first",
    "retell",
    "unnamed",
    "who",
]


_HIM = "dad father brother son husband boyfriend uncle grandpa grandfather nephew fiance fiancé stepdad stepfather"
_HER = (
    "mom mum mother sister daughter wife girlfriend aunt grandma grandmother granny nan nana niece fiancee "
    "fiancée stepmom stepmother"
)
_EITHER = (
    "partner friend cousin boss coworker co-worker colleague roommate flatmate neighbor neighbour kid child baby "
    "teacher coach doctor therapist manager mentor"
)
_PETS = "dog cat puppy kitten"  # told of as "he" or "she" too, and as "it"
_GENDER = (
    {w: "he" for w in _HIM.split()}
    | {w: "she" for w in _HER.split()}
    | {w: None for w in f"{_EITHER} {_PETS}".split()}
)
_RELATION = "|".join(sorted(_GENDER, key=len, reverse=True))
_ANYONE = "woman man guy girl boy lady gentleman person student"
# Words for people, longest first (a regex alternation): the ones in a person's life and anyone;
# never what an "it" stands for.
PEOPLE = "|".join(
    sorted([*(w for w in _GENDER if w not in _PETS.split()), *_ANYONE.split()], key=len, reverse=True)
)
_KIN = r"(?:(?:best|little|big|older|younger|elder|new|old|baby|twin|oldest|youngest)\s+)?"
_MINE = re.compile(
    rf"\b(?:my|our)\s+{_KIN}(?P<rel>{_RELATION})\b(?:,?\s+(?P<name>(?-i:{CAPITALISED})))?", re.I
)
_YOURS = re.compile(rf"\byour\s+{_KIN}(?P<rel>{_RELATION})\b(?:,?\s+(?P<name>(?-i:{CAPITALISED})))?", re.I)
# Capitalised words that stand where a name could but name no one.
_NOT_NAMES = wordset(
    "i i'm i've i'd i'll the a an it its this that these those there here what who whom whose where when why "
    "how which let today tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday january "
    "february march april may june july august september october november december ok okay oh wow hey hi "
    "hello thanks haha lol omg yes yeah no nope sure user he she they we you mr mrs ms dr "
    "christmas easter halloween thanksgiving hanukkah diwali eid god"
)
# A place, not a person: "the drive back up to Vancouver", "at Halfmoon Studios".
_PLACE_BEFORE = re.compile(
    r"\b(?:in|to|at|from|near|into|of|on|around|through|across|visit|visiting|toward|towards)\s+$", re.I
)
# ... but after these, "to" goes to someone: "we had to say goodbye to Max", "I gave it to Rui".
_TO_SOMEONE = re.compile(
    r"\b(?:goodbye|bye|hello|talk\w*|spoke|speak\w*|said|say|says|saying|introduced|married|engaged|"
    r"gave|give|gives|giving|sent|send|sending|wrote|write|writing|lent|showed|taught|read|reading|"
    r"proposed|apologi[sz]ed|grateful|nice|kind|mean|thanks)\s+(?:\w+\s+)?to\s+$",
    re.I,
)
# Said beside a name, these make it one told of, not spoken to: "this amazing woman, Jean, who".
_SOMEONE_BEFORE = re.compile(rf"\b(?:{PEOPLE}|{'|'.join(_PETS.split())}),\s*$", re.I)
_GIVEN = re.compile(
    # "How's Pepper?", "Is Comet home yet?", "Does Pickles approve?": asked after, so someone
    r"(?:\b(?:meet|named|name's|name\s+is|how's|how\s+(?:is|was)|where's|where\s+is)"
    r"|(?:^|[.!?]\s*)(?:is|was|does|did|has))\s+$",
    re.I,
)
_WHO_AFTER = re.compile(r"^\s*,\s*who\b", re.I)
# A parent called by the word a child calls them ("Dad, honestly. He ran a panaderia"): the
# speaker's own, as "my dad" is.
_CALLED = re.compile(r"(?<![\w'])(?P<rel>Dad|Mom|Mum|Mama|Papa|Grandma|Grandpa|Nana|Granny)(?![\w'])")
# Only the listener spoken to: a name alone after a greeting, a reaction or a sentence's start,
# before a comma or the sentence's end ("Wow, cool Caroline!", "Thanks Jun.", "Jun, did he ...");
# not the one told of ("You never told me about an Elise!", "We found someone: Celeste.").
_ADDRESS_BEFORE = re.compile(
    r"(?:^|[,.!?]\s*|\b(?:hey|hi|hello|thanks|thank\s+you|congrats|congratulations|wow|oh|ooh|aw+|haha|yo|dear|"
    r"bye|sorry|yes|yeah|no|ok|okay|cool|great|awesome|nice|amazing|good|right|sure|love\s+you)[\s,!]*)$",
    re.I,
)
_ADDRESS_AFTER = re.compile(r"^\s*(?:[,.!?]|$)")


@dataclass(frozen=True)
class Person:
    """Someone a turn names: how a fact calls them ("User's dad", "Rui"), their pronoun when the
    words tell it ("he" for a dad), and what makes two mentions one person (a name or a relation)."""

    called: str
    pronoun: str | None
    key: str


def people_in(text: str, *, listener: bool = False) -> list[Person]:
    """The people ``text`` names, in order: the speaker's own ("my dad", "my friend Priya"), or the
    listener's person the speaker asks about when ``listener`` ("your dad" is the user's dad when
    the assistant or a friend asks), and anyone named by name who is not only spoken to."""
    found: list[tuple[int, Person]] = []
    taken: list[tuple[int, int]] = []
    for m in (_YOURS if listener else _MINE).finditer(text):
        rel = m["rel"].lower()
        # After "my cat" a capitalised word is a name, though a dictionary knows it ("Pickles").
        name = m["name"] if m["name"] and _is_name(m["name"], after_relation=True) else None
        called = f"User's {rel} {name}" if name else f"User's {rel}"
        found.append((m.start(), Person(called, _GENDER.get(rel), (name or rel).lower())))
        taken.append((m.start(), m.end()))
    if listener:
        # The listener's own "my cat Biscuit" is someone they tell of, by name.
        for m in _MINE.finditer(text):
            if m["name"] and _is_name(m["name"], after_relation=True):
                rel = m["rel"].lower()
                found.append((m.start(), Person(m["name"], _GENDER.get(rel), m["name"].lower())))
                taken.append((m.start(), m.end()))
    for m in _RUN.finditer(text):
        # "And Felix", "Thanks Jun": the words before a name are no part of it.
        words = [(w.start(), w.group(0)) for w in re.finditer(r"\S+", m["run"])]
        # "Meet Pepper", "her name's Coco": a name, though a dictionary knows the word.
        given = False
        while words:
            at = m.start() + words[0][0]
            given = bool(_GIVEN.search(text[max(0, at - _AROUND) : at]))
            if _is_name(words[0][1], after_relation=given):
                break
            words.pop(0)
        if not words or any(a <= m.start() < b for a, b in taken):
            continue
        if not all(_is_name(w, after_relation=given) for _, w in words):
            continue  # a name of several words a dictionary knows part of: a firm, a band, a street
        name = " ".join(w for _, w in words)
        start = m.start() + words[0][0]
        # Only the words around a name tell what it is (and a long turn is not rescanned per name).
        before, after = text[max(0, start - _AROUND) : start], text[m.end() : m.end() + 3 * _AROUND]
        if (_PLACE_BEFORE.search(before) and not _TO_SOMEONE.search(before)) or _ITS.match(after):
            continue  # a place; "Seabrook even has its own marine lab": a thing
        told_of = _SOMEONE_BEFORE.search(before) or _WHO_AFTER.match(after)
        if _ADDRESS_AFTER.match(after) and _ADDRESS_BEFORE.search(before) and not told_of:
            continue
        found.append((start, Person(name, None, name.lower())))
    if not listener:
        parents = _parents(text, taken)
        starts = {at for at, _ in parents}
        # "Nana" is the word a child says, not a name
        found = [(at, p) for at, p in found if at not in starts] + parents
    return [p for _, p in sorted(found, key=lambda x: x[0])]


def _parents(text: str, taken: list[tuple[int, int]]) -> list[tuple[int, Person]]:
    """The speaker's parents and grandparents called as a child calls them ("Dad, honestly. He
    ran a panaderia"), not when spoken to ("Love you, Mom!") or already read ("my Dad")."""
    out = []
    for m in _CALLED.finditer(text):
        before = text[max(0, m.start() - _AROUND) : m.start()]
        if any(a <= m.start() < b for a, b in taken) or _POSSESSED.search(before):
            continue
        opens_reply = not before.strip() and text[m.end() :].lstrip().startswith(",")
        spoken_to = _ADDRESS_AFTER.match(text[m.end() : m.end() + _AROUND]) and _ADDRESS_BEFORE.search(before)
        if spoken_to and not opens_reply:
            continue
        rel = {"mama": "mom", "papa": "dad"}.get(m["rel"].lower(), m["rel"].lower())
        out.append((m.start(), Person(f"User's {rel}", _GENDER.get(rel), rel)))
    return out


_POSSESSED = re.compile(r"\b(?:my|our|your)\s+$", re.I)


# A run of capitalised words: one name ("Ezra Kim" is one person, not Ezra and Kim), with its
# "'s" ("Oliver's hilarious", "Oliver's bone": Oliver is spoken of either way).
_RUN = re.compile(rf"(?<![\w'])(?P<run>{CAPITALISED}(?:\s+{CAPITALISED})*)(?=(?:'s)?(?![\w']))")
# How many characters before a name decide whether it is a place or only spoken to.
_AROUND = 60
# The rest of a clause speaking of what it names as a thing.
_ITS = re.compile(r"^(?:'s)?[^.!?;]*\bits\b", re.I)


_LAUGH = re.compile(r"^(?:a?(?:ha|he|hi)+h?|lo+l|lmao|omg|aw+|o+h|u+m+|hm+)$")
_LINKS = wordset("because although though unless whereas anyway besides meanwhile plus")


def _is_name(word: str, *, after_relation: bool = False) -> bool:
    """ "Rui", "Élodie": a capitalised word no dictionary knows, not "And", "Hahaha" or "Monday"."""
    bare = word[:-2] if word.endswith("'s") else word
    bare = bare.lower()
    return (
        len(bare) > 1
        and bare not in _NOT_NAMES
        and bare not in STOPWORDS
        and bare not in _LINKS
        and not _LAUGH.match(bare)
        and (after_relation or not lexicon_knows(bare))
    )


def who(pronoun: str, people: Sequence[Person]) -> Person | None:
    """The one person of ``people`` that ``pronoun`` ("he" or "she") can stand for, else None."""
    fits = {p.key: p for p in people if p.pronoun in (None, pronoun.lower())}
    return next(iter(fits.values())) if len(fits) == 1 else None


_OPENS = re.compile(r"^(?P<pronoun>he|she)(?:(?P<short>'s|'d|'ll)|\s+(?=\w))\s*", re.I)
_MODAL = re.compile(r"^(?:would|could|might|may|should|'d\s+(?:love|like|be))\b", re.I)
_ADVERB = re.compile(r"^(?:\w+ly|already|still|just|also|even|never|always|finally|now)$")
_BARE_VERB = re.compile(r"^\w+\s*[,:]")
_AND_I = re.compile(r"\b(and|with)\s+(?:I|me)\b")
_SUBJECT = re.compile(r"^(?P<subject>He|She)\s")


# A time or a heading before the pronoun: "Last week he got a new job", "Big news: she walked!".
_FRONTED = re.compile(
    r"^(?:(?P<time>yesterday|today|tonight|this\s+(?:morning|afternoon|evening|week|month|year)|"
    r"last\s+\w+|next\s+\w+|on\s+\w+day)\s*,?\s+|[^:]{1,40}:\s+)(?=(?:he|she)\b)",
    re.I,
)


def pronoun_first(sentence: str) -> str:
    """``sentence`` with a time fronted before "he" or "she" moved to its end ("he got a new job
    last week"), and a heading before them dropped ("Big news: she walked" -> "she walked")."""
    m = _FRONTED.match(sentence)
    if m is None:
        return sentence
    rest = sentence[m.end() :]
    if not m["time"]:
        return rest
    end = len(rest.rstrip(".!"))
    time = m["time"][0].lower() + m["time"][1:]
    return f"{rest[:end]} {time}{rest[end:]}"


def opens_with_someone(sentence: str) -> bool:
    """Whether ``sentence`` is told of a third person it calls "he" or "she"."""
    return bool(_OPENS.match(sentence))


def retell(sentence: str, person: Person | None) -> str | None:
    """``sentence`` ("He's an architect") told of ``person`` ("Rui is an architect"), the speaker's
    words about themselves in the third person ("She's the reason I eat vegetables" -> "Elise is
    the reason they eat vegetables"); with no person, of "He"/"She" for ``resolve_referents`` to
    name. None when it says nothing lasting: a wish or a guess ("She'd love that")."""
    m = _OPENS.match(sentence)
    if m is None:
        return None
    rest = sentence[m.end() :].strip().rstrip(".!").strip()
    short = (m["short"] or "").lower()
    if short == "'s":
        # "She's been", "he's got", "she's brought": has; "he's an", "she's married": is (an "-ed"
        # word is as often what someone is as what they have done).
        first = next((w for w in rest.lower().split() if not _ADVERB.match(w)), "")
        has = first in ("been", "got") or (is_past_participle(first) and not first.endswith("ed"))
        verb = "has " if has else "is "
    elif short == "'d":
        return None  # "he'd love it", "she'd already left": a wish, or a past only its context dates
    elif short == "'ll":
        verb = "will "
    else:
        verb = ""
    if _MODAL.match(rest) or _BARE_VERB.match(verb + rest):
        return None  # "She'd love that"; "He is, as long as there's a video": no predicate
    body = swap_pronouns(_AND_I.sub(lambda a: f"{a[1]} User", verb + rest))
    subject = person.called if person else m["pronoun"].capitalize()
    return f"{subject} {body}"


def unnamed(fact: str) -> str | None:
    """The pronoun a fact from ``retell`` is still told of ("He", "She"), or None."""
    m = _SUBJECT.match(fact)
    return m["subject"] if m else None


@functools.lru_cache(maxsize=32)
def _people(text: str, listener: bool) -> tuple[Person, ...]:
    """``people_in``, read once per turn: each of a turn's facts told of "he" looks at the same
    turns before it (488 such facts after a 16,000-character turn took 18 s read one by one)."""
    return tuple(people_in(text, listener=listener))


_FORMS = {"he": r"\b(?:he|him|his)\b", "she": r"\b(?:she|her|hers)\b"}


def name_from(fact: str, before: str, earlier: str | None = None) -> str | None:
    """``fact`` told of the one person the turn ``before`` it names that its pronoun fits ("What
    does Rui do?" names Rui), or None when that turn names no one who fits, or two. ``earlier``:
    the speaker's own turn before that one, for when ``before`` only goes on about someone by the
    same pronoun ("I'm helping my cousin find a place" - "How is she doing?" - "She had to leave")."""
    pronoun = unnamed(fact)
    if pronoun is None:
        return fact
    said = re.search(rf"\b{pronoun}\b", before, re.IGNORECASE)
    if said is None:
        person = who(pronoun, _people(before, True))
    else:
        # The turn before already told of someone as "he": the one it named first ("Coco looks so
        # adorable! She seems so happy"), else its "your dad"; a name it says after the pronoun
        # is not whom the pronoun goes on about ("He's nervous ... Hana's running the bakery").
        named = [p for p in _people(before[: said.start()], True) if p.pronoun in (None, pronoun.lower())]
        person = who(pronoun, named) if named else None
        if person is None and not named:
            related = [p for p in _people(before, True) if p.pronoun is not None]
            person = who(pronoun, related)
            if (
                person is None
                and not related
                and earlier
                and re.search(_FORMS[pronoun.lower()], earlier, re.I)
            ):
                # Both went on about the one the speaker had named ("Meet Pepper! I adopted her").
                person = who(pronoun, _people(earlier, False))
    return None if person is None else person.called + fact[len(pronoun) :]
