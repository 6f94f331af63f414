"""Fact extraction behind the ``Extractor`` protocol; the default is deterministic and local.

``RuleExtractor`` keeps durable statements about the person, one fact per statement, in the
third person: "I'm vegan, and I moved to Oslo" -> "User is vegan", "User moved to Oslo";
already distilled facts ("User is vegan") are kept as they are. Questions, hypotheticals ("If I
had a dog, I'd call it Max"), small talk ("I see what you mean", "I'm tired today"), greetings,
filler and requests to the assistant give nothing; "Remember that I'm vegan" keeps the fact.
An LLM-backed extractor can implement the same protocol later.
"""

from __future__ import annotations

import re
import threading
from typing import Protocol, runtime_checkable

from ..language.detect import reads_as_english
from ..language.scripts import UPPER
from ..language.words import STOPWORDS, wordset
from .any_language import is_plainly_empty
from .chat_forms import (
    answer_riddle,
    restore_subject,
    strip_attachments,
    strip_lead,
    strip_reaction,
    strip_trailing_name,
    unfront,
)
from .someone import Person, opens_with_someone, people_in, pronoun_first, retell, who
from .substance import about_listener, is_hedge, says_something
from .third_person import (
    could_be_nominal,
    lexicon_knows,
    load_lexicon,
    mentions_past,
    swap_pronouns,
    to_third_person,
)
from .timephrases import fits_tense, lasts_until_said, time_phrase

# Every way people type an apostrophe or a quote, read as the plain one the rules are written
# for: "I’m", "I`m", "I´m" and "Iʼm" are all "I'm"; "″" is a double quote.
APOSTROPHES = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "`": "'",
        "\u00b4": "'",
        "\u2032": "'",
        "\u02bc": "'",
        "\uff07": "'",
        "\u2033": '"',
    }
)


FILLER_WORDS = wordset(
    """and or but so then also plus like well ok okay kk k yes yeah yep yup no nope nah sure right fine good
    cool nice great awesome perfect exactly really totally indeed alright done wow oops whoops hi hello hey yo
    bye goodbye thanks thank you please welcome morning evening night um uh umm uhh hmm hm huh oh ah er haha
    hehe lol what why how when where who which the a an it this that me my"""
)
_LOW_VALUE_WORD = re.compile(r"[a-z']+")
# The speaker in a sentence; with the listener, the words that name people rather than say something.
_SPEAKER_WORDS = r"i|i'm|im|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'll|we'd|us|our|ours"
_SPEAKER = re.compile(rf"\b(?:{_SPEAKER_WORDS})\b", re.I)
# "I'm off to do some taekwondo!": no lasting fact, but it tells what the speaker does.
_OFF_TO = re.compile(r"i(?:'m|\s+am|m)\s+(?:\w+\s+)?off\s+to\b", re.I)
# A relative clause naming the listener as where something came from, after the thing it names:
# "the book you recommended" is "the book recommended to them" (the fact keeps that it was a
# recommendation; who the listener is, the fact cannot say).
_FROM_LISTENER = re.compile(
    r"(?<=[a-z])\s+(?:that\s+|which\s+)?(?:you|u)(?:'ve|\s+have|\s+had)?\s+"
    r"(?P<verb>recommended|suggested|mentioned|gave\s+me|sent\s+me|showed\s+me|lent\s+me|"
    r"told\s+me\s+about|shared(?:\s+with\s+me)?)(?:\s+to\s+me)?(?![\w'])",
    re.I,
)
_PASSIVE = {
    "recommended": "recommended to them",
    "suggested": "suggested to them",
    "mentioned": "mentioned to them",
    "gave": "given to them",
    "sent": "sent to them",
    "showed": "shown to them",
    "lent": "lent to them",
    "told": "mentioned to them",
    "shared": "shared with them",
}


def _from_listener(clause: str) -> str:
    return _FROM_LISTENER.sub(lambda m: " " + _PASSIVE[m["verb"].split()[0].lower()], clause)


_LISTENER_FIRST = re.compile(r"(?:you|your|you're|you've|you'll|you'd|ya|u|ur)\b", re.I)
_PEOPLE_WORDS = re.compile(
    rf"\b(?:{_SPEAKER_WORDS}|you|your|yours|yourself|you're|you've|you'll|you'd|ya|u|ur)(?![\w'])", re.I
)


def tells(sentence: str) -> bool:
    """Whether one sentence of a turn tells something, rather than asking (a question), asking the
    assistant for something (a request) or greeting: what makes a turn worth keeping as said."""
    said = sentence.strip()
    sentence = answer_riddle(_GREETING.sub("", said))
    if not sentence or sentence.endswith("?") or is_low_value(sentence):
        return False
    bare = restore_subject(strip_trailing_name(strip_reaction(sentence)).strip())
    if not bare or _QUESTION_START.match(bare) or _REQUEST.match(bare) or _REQUEST_AS_NEED.match(bare):
        return False
    # Reactions and remarks about the listener tell nothing of the speaker: "You're a gem, Omar",
    # "Wow, that looks amazing!", "I bet!". Kept as said, they would outrank what was told.
    if not _SPEAKER.search(bare):
        return not about_listener(said) and says_something(bare)
    if _LISTENER_FIRST.match(bare):
        return False  # "You never texted me!": about the listener, though it names the speaker
    if is_hedge(bare) and not _OFF_TO.match(bare):
        return False
    return says_something(_PEOPLE_WORDS.sub(" ", bare))


def is_low_value(text: str) -> bool:
    """Low value (openapi.yaml, add_turn): no letter, at most one word, or two words that are both
    filler. A turn that does not read as English is judged in its own language instead
    (``any_language.is_plainly_empty``): its words are not ``[a-z']+``."""
    if not any(ch.isalpha() for ch in text):
        return True
    if not reads_as_english(text):
        return is_plainly_empty(text)
    words = _LOW_VALUE_WORD.findall(text.lower())
    if len(words) <= 1:
        return True
    return len(words) == 2 and all(w in FILLER_WORDS for w in words)


@runtime_checkable
class Extractor(Protocol):
    """Durable facts in ``text``. ``explicit`` is True when the caller asked to store it (``/memory/add``)."""

    def extract(self, text: str, *, explicit: bool = False) -> list[str]:
        """The facts of ``text``, each a third-person sentence ("User is vegan"); ``explicit``
        when the caller asked to store exactly this text (``/memory/add``)."""
        ...


# A dash between words ends a thought as often as a full stop does in chat: "I do- Oscar, my guinea pig".
# (A match never starts inside a run of spaces, here and below: each start position would rescan
# the run, and a turn of 16,000 spaces took 20 s.)
# A title or a place-name word before its name ends no sentence: "Dr. Patel", "St. Johns", "Mt. Hood".
_ABBREVIATED = r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bSt\.)(?<!\bMt\.)(?<!\bMrs\.)(?<!\bAve\.)(?<!\bProf\.)"
_SENTENCES = re.compile(
    r"(?<=[.!?;])" + _ABBREVIATED + r"\s+|\n+|(?<!\s)\s+[-\u2013\u2014]+\s+|(?<=[a-z])[-\u2013\u2014]\s+"
)
# Split "X, and I Y" / "X but my Y" into clauses only where a new first-person statement starts.
_CLAUSES = re.compile(
    r"(?<!\s)\s*(?:,\s*(?:and|but|also|plus)?|\s(?:and|but|plus)\s(?:also\s)?)\s*"
    r"(?=(?:i|i'm|im|i've|i'd|i'll|my|we|we're|our)\b|(?:her|his|its)\s+name\b"
    r"|(?:last|this|next|on|in|at|every|yesterday|today|tomorrow|tonight|weekends"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b[^,.;]{0,25}?\s(?:i|i'm|i've|we|we're|we've)\s"
    # "..., and Dana and I crunched the numbers": a statement the speaker shares with someone.
    rf"|(?-i:{UPPER}[\w'-]*)\s+and\s+(?-i:I)\s)",
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
# Asking the assistant for something, worded as a need: "I need a recipe for lasagne".
_REQUEST_AS_NEED = re.compile(
    r"^i\s*(?:need|want|would\s+like|'d\s+like|d\s+like)\s+(?:some\s+|a\s+|an\s+|your\s+|the\s+|a\s+few\s+)?"
    r"(?:quick\s+|short\s+|good\s+|little\s+)?(?:help|hand|advice|summary|recipe|recipes|list|ideas?|"
    r"suggestions?|recommendations?|tips|translation|poem|joke|email|draft|quote|review|explanation|answer|"
    r"overview|outline|template|example|examples)\b"
    r"|^i(?:\s+was|'m|\s+am|m)\s+(?:wondering|hoping)\s+(?:if|whether)\s+you\b"
    r"|^i\s+(?:have|'ve\s+got|ve\s+got|got)\s+a\s+(?:quick\s+|small\s+|little\s+)?question\b"
    r"|^i(?:'m|\s+am|m)\s+(?:looking|searching)\s+for\b.*\b(?:nearby|near\s+me|near\s+here|around\s+here|in\s+town|"
    r"tonight|tomorrow|for\s+dinner|for\s+lunch)\b",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"^(?:hi|hello|hey|yo|good\s+(?:morning|afternoon|evening|night)|thanks|thank\s+you|thx|cheers|bye|"
    r"goodbye|see\s+you|welcome|sorry|ok|okay|sure|great|cool|nice|awesome|perfect|lol|haha)\b[\s!.,]*",
    re.IGNORECASE,
)
# "Remember that ...", "FYI ...": the rest is the statement to keep.
_PREAMBLE = re.compile(
    r"^(?:(?:please\s+)?(?:remember|note|keep\s+in\s+mind|bear\s+in\s+mind|don't\s+forget|do\s+not\s+forget)"
    r"(?:\s+that)?|fyi|btw|by\s+the\s+way|just\s+so\s+you\s+know|for\s+the\s+record|for\s+your\s+information|"
    r"for\s+context|just\s+fyi|heads\s+up|(?:i\s+)?(?:just\s+)?(?:wanted|want|had)\s+to\s+(?:let\s+you\s+know|tell\s+you|"
    r"share|say)(?:\s+that)?)\s*[,:\-]?\s+(?=\S)",
    re.IGNORECASE,
)
# A sentence about a world that isn't (yet) the user's: nothing in it is a fact.
_HYPOTHETICAL = re.compile(
    r"^(?:imagine|suppose|supposing|assuming|assume|pretend|hypothetically|in\s+theory|what\s+if|"
    r"let's\s+say|lets\s+say|say\s+(?:that\s+)?i\b|in\s+an?\s+(?:perfect|ideal)\s+world|even\s+if|unless)\b",
    re.IGNORECASE,
)
# "If/When/While X, I Y" (comma or not) -> "I Y if/when/while X": "While volunteering yesterday, I
# met Jean" dates the meeting.
_CONDITION_FIRST = re.compile(
    r"^(?P<link>if|when|whenever|while)\s+(?P<condition>.+?)(?:,\s*(?:then\s+)?|\s+)(?P<main>(?:i|i'm|im|i've|i'd|i'll|my)\b.+)$"
    # "When I was younger, we had ...": a "we" after "if" would be a general rule ("If it rains, we stay in").
    r"|^(?P<wlink>when|whenever)\s+(?P<wcondition>.+?),\s*(?P<wmain>(?:we|we're|we've)\b.+)$",
    re.IGNORECASE | re.S,
)
_MODAL_WORD = re.compile(r"\b(?:would|could|might|may|will|shall|'d|'ll)\b", re.IGNORECASE)
_CONDITIONAL = re.compile(r"^i(?:\s+|')(?:would|could|might|d)\b.*\bif\b", re.IGNORECASE)
# Conversation, not information: "I see what you mean", "I'm fine", "I'll think about it".
_SMALL_TALK = re.compile(
    r"^i\s+(?:think|guess|suppose|believe|hope|feel|bet)\s+(?:that\s+)?(?:you|you're|youre|that's|thats|it's|its|"
    r"this|that)\b"
    r"|^i\s+(?:can't|cannot|cant|can\s+not)\s+believe\b|^i(?:'m|\s+am|m)\s+(?:so\s+|really\s+)?sorry\b"
    r"|^i\s+(?:mean|meant)\b|"
    r"^i\s+(?:see|agree|understand|guess|think|suppose|believe|hope|know|get\s+it|got\s+it|get\s+you|"
    r"got\s+you|didn't\s+know|did\s+not\s+know|didnt\s+know|don't\s+know|dont\s+know|do\s+not\s+know|"
    r"can't\s+believe|cannot\s+believe|mean|meant|see\s+your\s+point)"
    r"(?:\s+(?:so|that|this|it|what\s+you\s+mean|with\s+you|you|your\s+point|now))?(?:\s+(?:too|as\s+well|then))?$"
    r"|^i(?:'m|\s+am|m)\s+(?:not\s+sure|unsure|fine|good|ok|okay|alright|all\s+right|great|well|back|here|ready|"
    r"done|listening|in|out|on\s+it|with\s+you|just\s+(?:browsing|looking|curious|asking|wondering|checking|"
    r"kidding|joking))(?:\s+(?:now|then|too))?$"
    r"|^i(?:'ll|\s+will)\s+(?:think\s+about\s+it|try(?:\s+(?:that|it))?|check|have\s+a\s+look|let\s+you\s+know|"
    r"get\s+back\s+to\s+you|do\s+that|see)$"
    r"|^i\s+(?:really\s+)?(?:love|like|hate)\s+(?:that|this|it)(?:\s+(?:idea|one|plan|suggestion|answer))?$"
    # news announced, not told; a wish; a reaction to what the listener said
    r"|^i(?:'ve|\s+have)?\s+(?:got\s+)?(?:some\s+|big\s+)?news(?:\s+too)?$|^i\s+wish$"
    r"|^i\s+(?:really\s+)?needed\s+(?:to\s+hear\s+)?(?:that|this)$|^my\s+lips\s+are\s+sealed$"
    r"|^my\s+(?:gosh|god|goodness)\b"
    r"|^i(?:'m|\s+am|m)\s+(?:still\s+)?(?:so\s+|really\s+|very\s+|a\s+bit\s+|a\s+little\s+|kind\s+of\s+|pretty\s+|super\s+"
    r"|honestly\s+|totally\s+)?"
    r"(?:tired|bored|hungry|thirsty|sleepy|exhausted|cold|hot|sad|happy|stressed|annoyed|excited|busy|free|awake|"
    r"online|full|stuffed|sick|ill|grumpy|cranky|nervous|lazy|late|early|confused|lost|stuck|terrified|scared|"
    r"shocked|in\s+shock|stoked|thrilled|glad|relieved|coming|having\s+fun|speechless|honored|honoured|jealous)"
    r"(?:\s+(?:today|tonight|now|right\s+now|at\s+the\s+moment|this\s+(?:morning|afternoon|evening|week)))?$",
    re.IGNORECASE,
)
_NAMED_AS_MINE = re.compile(
    rf"^(?P<name>{UPPER}[\w'.&-]*(?:\s+[\w'.&-]+){{0,3}}?)\s+(?P<verb>is|are)\s+my\s+(?P<what>(?:[\w'-]+\s+){{0,3}}[\w'-]+)$"
)
_FAVOURITE = re.compile(
    rf"^(?P<thing>{UPPER}[\w'-]*(?:\s+[\w'-]+){{0,6}}?)\s+(?P<verb>is|are)\s+my\s+(?:absolute\s+|all-time\s+)?"
    r"(?P<what>favou?rite(?:\s+[\w'-]+){0,3}|passion|biggest\s+passion|hobby)$"
)
_NOT_A_NAME = frozenset(
    [
        "this",
        "that",
        "these",
        "those",
        "it",
        "there",
        "here",
        "what",
        "which",
        "who",
        "he",
        "she",
        "they",
        "we",
        "you",
        "everything",
        "nothing",
        "something",
        "all",
        "none",
        "one",
        "the",
        "a",
        "an",
    ]
)
_TRAILING_THANKS = re.compile(
    r"(?<![\s,])[\s,]+(?:thanks|thank\s+you|thx|cheers|lol|haha)\s*$", re.IGNORECASE
)
_THIRD_PERSON = re.compile(r"^(?:the\s+)?user(?:'s)?\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"^(?:i|i'm|im|i've|i'd|i'll|my|mine|me)\b", re.IGNORECASE)


_WE = re.compile(r"^(?:we|we're|we've|we'll|we'd|our)\b", re.IGNORECASE)
_WE_DID = re.compile(r"^(?:we|we've|we'd)\s+(?!all\b|both\b)\w+", re.IGNORECASE)
_A_NAME = re.compile(rf"^{UPPER}[\w'-]*(?:\s+{UPPER}[\w'-]*)?$")
_COMPANION = re.compile(rf"^{UPPER}[\w'-]*(?:\s+{UPPER}[\w'-]*)?\s+and\s+(?:I|me)\s")
_PAST_TURN = re.compile(r"\b(?:was|were|did|had|wasn't|weren't|didn't)\b", re.IGNORECASE)
_PERSONAL_START = re.compile(
    r"(?:i|i'm|im|i've|i'd|i'll|me|my|we|we're|we've|we'll|we'd|our|(?:the\s+)?user(?:'s)?)\b"
    rf"|{UPPER}[\w'-]*(?:\s+{UPPER}[\w'-]*)?\s+and\s+(?:I|me)\s",
    re.IGNORECASE,
)
_MY_INSIDE = re.compile(r"\s(?:is|are)\s+my\s")
_PERSONAL = re.compile(
    r"\b(?:i|i'm|im|i've|i'd|i'll|me|my|we|we're|we've|we'll|we'd|our|user)\b", re.IGNORECASE
)
_SO_THEN = re.compile(
    r"^(?P<cause>[^,;]{8,120}?),\s*so\s+(?P<main>"
    r"(?:(?:yesterday|today|tonight|last|this|next|on|in|after)\b[^,;]{0,30}?\s+)?"
    r"(?:i|i'm|im|i've|i'd|i'll|we|we're|we've|my)\b.+)$",
    re.IGNORECASE | re.S,
)
_PRONOUN_START = re.compile(r"^(?:she|he|they|it|we|you|there)(?:'\w+)?\b", re.IGNORECASE)
_LINK = re.compile(r"^(?:but|and|so|plus|also|anyway|well|oh)\b,?\s*", re.IGNORECASE)
_HABIT = re.compile(
    r"\b(?:every|always|usually|often|never|each|daily|weekly|sometimes|most)\b", re.IGNORECASE
)
_NAME_CONNECTORS = frozenset(["de", "le", "la", "van", "von", "of", "the", "and", "&", "da", "del", "du"])


def _is_name(name: str) -> bool:
    """ "Ursula Le Guin", "Dance": capitalised words; not "I feel like this" or "This"."""
    words = name.split()
    if words[0].lower() in _NOT_A_NAME or words[0] == "I":
        return False
    return all(w[:1].isupper() or w.lower() in _NAME_CONNECTORS for w in words)


_I = re.compile(r"^i\b", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_ASKING = re.compile(r"^i\s+(?:want|need|would\s+like)\s+(?:you|to\s+know\s+what|to\s+ask)\b", re.IGNORECASE)
_JOINT_SUBJECT = re.compile(r"^my\s+[\w'-]+(?:\s+[\w'-]+){0,2}$", re.IGNORECASE)


def _is_joint_subject(piece: str) -> bool:
    """ "my husband" (a noun phrase) and not "my job is stressful" (a statement)."""
    if not _JOINT_SUBJECT.match(piece):
        return False
    return all(could_be_nominal(word) for word in piece.split()[1:])


# "my pet", "my best friend": a thing named, with nothing said about it.
_BARE_THING = re.compile(
    r"^my\s+(?:(?:best|new|old|little|big|older|younger|elder|dear|favou?rite|own)\s+)?[\w'-]+$",
    re.IGNORECASE,
)


_OWNED_THING = re.compile(r"^my\s+[\w-]+'s\s+[\w-]+$", re.IGNORECASE)


def _is_bare_thing(piece: str) -> bool:
    return bool(_BARE_THING.match(piece))


def _is_companion(piece: str) -> bool:
    """ "Anthony" before "and I went ...", but not "I'm Sara" before "and I'm a chef"."""
    return bool(_A_NAME.match(piece)) and not _FIRST_PERSON.match(piece)


def _clauses(sentence: str) -> list[str]:
    return [text for text, _ in _clause_parts(sentence)]


def _first_clause_end(sentence: str) -> int | None:
    """Where the first of ``sentence``'s clauses ends, when it has more than one."""
    parts = _clause_parts(sentence)
    if len(parts) < 2 or all(_is_bare_thing(thing.strip()) for thing in parts[0][0].split(",")):
        return None  # "my car, my pet and my health all ...": a list that is the subject
    return parts[0][1]


def _clause_parts(sentence: str) -> list[tuple[str, int]]:
    """The clauses of ``sentence``, each with where it ends in ``sentence``."""
    parts, joins, start = [], [], 0
    for cut in _CLAUSES.finditer(sentence):
        parts.append((sentence[start : cut.start()], cut.start()))
        joins.append(cut.group())
        start = cut.end()
    parts.append((sentence[start:], len(sentence)))
    out: list[tuple[str, int]] = []
    for n, (part, ends) in enumerate(parts):
        piece = part.strip()
        following = parts[n + 1][0].strip() if n + 1 < len(parts) else ""
        last = out[-1][0].strip() if out else ""
        # "Anthony and I": a companion. "Hopefully, I ..." and "Maria, I ..." name no one who did it.
        joined_by_and = n > 0 and "," not in joins[n - 1]
        if (
            out
            and _WE.match(piece)
            and not (_WE_DID.match(piece) and not _FIRST_PERSON.match(last) and not _WE.match(last))
        ):
            # "... with my partner and our two cats" stays whole, and so does a "we" going on from
            # the speaker's own clause ("I went hiking with my sister, and we saw a bear"); after a
            # clause of something else, "we" starts a statement ("Work was a nightmare, but we
            # adopted a puppy").
            out[-1] = (f"{out[-1][0].rstrip()} and {piece}", ends)
        elif out and (
            (_I.match(piece) and (_is_joint_subject(last) or (joined_by_and and _is_companion(last))))
            or last.lower() == "me"
        ):
            # "My husband and I live in Leeds", "Anthony and I", "Me and my brother": one subject.
            out[-1] = (f"{last} and {piece}", ends)
        elif out and _is_bare_thing(piece) and not _I.match(following):
            # "about my car, my pet and my health": a list of things, not statements about them.
            out[-1] = (f"{out[-1][0].rstrip()}, {piece}", ends)
        else:
            out.append((part, ends))
    return out


# "I adopted a cat, her name is Miso": the name belongs to the last thing the previous clause got.
_NAMED_IT = re.compile(
    rf"^(?:her|his|its|their)\s+name(?:'s|\s+is)\s+(?P<name>{UPPER}[\w'-]*(?:\s+{UPPER}[\w'-]*)?)$"
)
_THING = re.compile(
    r"\b(?:a|an|my|our|new)\s+(?P<thing>(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)"
    r"(?=\s+(?:last|this|next|yesterday|today|on|in|at|from|for|with|two|three|a|ago|who|that|and)\b|$)"
)


def _named_thing(previous: str, clause: str) -> str | None:
    m = _NAMED_IT.match(_clean(clause))
    things = list(_THING.finditer(_clean(previous)))
    if not m or not things:
        return None
    return f"User's {things[-1]['thing']} is called {m['name']}"


# A clause that says what it is about elsewhere: it points back ("I overdid it", "I'm losing
# that argument"), or tells how the speaker's body took what the clause before it said ("my eyes
# swell shut", "my stomach protests", "my forearms are still dead").
_POINTS_BACK = re.compile(r"\b(?:it|that|this|these|those|them)\b", re.IGNORECASE)
_BODY_TOLD = re.compile(
    r"^User's\s+(?:eyes|ears|nose|throat|stomach|head|back|neck|shoulders?|arms?|forearms|hands?|"
    r"fingers|legs?|knees?|ankles?|feet|foot|skin|muscles|body)\b"
)


# A clause whose verb is only said elsewhere: "we did, until ..." (the verb is the sentence
# before's), "but I do miss the people" (the contrast is with the clause before), "I'd never
# sleep again" (the consequence of the clause before).
_ELLIPTICAL = re.compile(
    rf"^User(?: and (?:others|{UPPER}[\w'-]*))? (?:"
    r"(?:did|does|do|is|are|was|were|has|have|had|will|can|could|would)(?: not|n't)?(?:,|$| too\b| though\b)"
    r"|(?:does|do|did) (?!not\b)[a-z]+)"
)
_CONSEQUENCE = re.compile(r"^User would\b")
# "I start on Monday": a start with nothing said of what starts.
_BARE_START = re.compile(
    r"^User (?:starts|start|started|begins|began|will start|will begin)\b"
    r"(?!\s+(?:a|an|the|their|at|with|as|working|work|school|college|uni|university|[a-z]+ing)\b)"
)


def _lacks_topic(fact: str, points_back: re.Pattern[str] = _POINTS_BACK) -> bool:
    return bool(
        _BODY_TOLD.match(fact)
        or _ELLIPTICAL.match(fact)
        or _BARE_START.match(fact)
        or _CONSEQUENCE.match(fact)
        or points_back.search(fact.removeprefix("User"))
    )


# "... at a startup called Brightpath, which is... fine": the sentence broke off where it went on.
_DANGLING = re.compile(
    r"(?<![\s,])(?:,?\s+(?:which|who|that)(?:\s+(?:is|was|are|were)|'s)|,\s*(?:which|who))\s*$", re.IGNORECASE
)


def _told_before(words: str) -> str | None:
    """What a clause or sentence that gave no fact says, retold to go before a fact that lacks
    its topic ("Fieldnote offered me the job, I start on Monday" -> "Fieldnote offered User the
    job; User starts on ..."), or None when it says too little, asks or speaks to the listener."""
    said = words.strip()
    clean = _TRAILING_THANKS.sub("", _clean(said))
    if not clean or said.endswith("?") or about_listener(clean) or len(clean) > _MAX_TOLD_BEFORE:
        return None
    if _GREETING.match(clean) or strip_reaction(clean) != clean:
        return None  # a reaction to the listener ("Wow, it looks awesome", "Yeah, Maria, ...")
    clean = _LINK.sub("", clean)
    if (
        _QUESTION_START.match(clean)
        or _REQUEST.match(clean)
        or _ASKS_ME.match(clean)
        or _PRONOUN_FIRST.match(clean)
        or _SUBORDINATE.match(clean)
    ):
        return None  # a pronoun first has a topic elsewhere itself ("It's about 50 minutes")
    if _SPEAKER_SUBJECT.search(clean):
        return None  # a statement of the speaker's own that gave no fact was refused for a reason
    if len(re.findall(r"[^\W\d_]{3,}", clean)) < 3 or not says_something(clean):
        return None
    # It must name someone or something of the speaker's: a general remark ("Challenges are
    # awesome for learning", "Even small things can mean a lot") is no topic.
    if not (_OBJECT_ME.search(clean) or _MY.search(clean) or any(map(_names_someone, clean.split()))):
        return None
    return _OBJECT_ME.sub("User", _MY.sub("User's", clean))


def _names_someone(word: str) -> bool:
    """ "Leila", "Fieldnote", "Jonah's": a capitalised word English does not know."""
    bare = word.strip('.,;:!?"()').removesuffix("'s")
    lower = bare.lower()
    return (
        bare[:1].isupper()
        and bare.isalpha()
        and bare != "I"
        and lower not in STOPWORDS
        and not lower.endswith("ing")  # "Blogging can really make a difference": a doing, no one
        and not lexicon_knows(lower)
    )


# Longer than this, what came before is a story of its own rather than the topic of a clause.
_MAX_TOLD_BEFORE = 120
_OBJECT_ME = re.compile(r"\bme\b")
_SUBORDINATE = re.compile(
    r"^(?:while|when|whenever|after|before|since|because|if|although|though|as|until|once)\b", re.IGNORECASE
)
_ASKS_ME = re.compile(r"^[a-z]+\s+me\b", re.IGNORECASE)  # "Distract me, tell me something good"
_LINK = re.compile(r"^(?:and|but|so|or|plus|also|then)\b[\s,]*", re.IGNORECASE)
_PRONOUN_FIRST = re.compile(
    r"^(?:it|it's|its|that|that's|this|these|those|they|they're|there|there's|he|he's|she|she's|we|we're|you)\b",
    re.IGNORECASE,
)
_SPEAKER_SUBJECT = re.compile(r"\b(?:i|i'm|im|i've|i'd|i'll|we|we're|we've|our|us)\b", re.IGNORECASE)
# A fact whose topic is surely in the sentence before: "User is losing that argument".
# ("this" and "these" are left out: "I met this amazing woman" introduces her.)
_NAMES_BACK = re.compile(
    r"\b(?:that|those)\s+(?!(?:week|weekend|month|year|morning|afternoon|evening|time|spring|summer|"
    r"fall|autumn|winter|one|much|many|far|long)\b)[a-z]+|\b(?:it|that|them)$"
)


def _needs_sentence_before(fact: str) -> bool:
    # Stricter than within a sentence: an "it" a sentence later is the referents' to resolve; and
    # a "that" after "realize", "think", "agree" ... opens what is realized, not a thing said before.
    return _lacks_topic(_COMPLEMENT.sub(" ", fact), _NAMES_BACK)


_COMPLEMENT = re.compile(
    r"\b(?:realiz|realis|think|thought|know|knew|said|say|feel|felt|hope|believ|agree|mean|sure|glad|"
    r"learn|notic|found|find|guess|suppos|decid|promis|understand|understood|show|prov|remember)\w*\s+that\b",
    re.IGNORECASE,
)


_MY = re.compile(r"\bmy\b")


def _clean(clause: str) -> str:
    return clause.strip().strip(" ,;:-–—").rstrip(".!").strip()


# A fact and what the turn goes on to say about it stay one fact up to this many characters.
MAX_JOINED = 320
_DASH = re.compile(r"(?<!\s)\s+[-\u2013\u2014]+\s+|(?<=[a-z])[-\u2013\u2014]\s+")
# A piece that goes on about the thing just told: "It made me appreciate ...", "They were so
# excited ...", "Their inclusivity and support really spoke to me".
_GOES_ON = re.compile(
    r"^(?:it|it's|its|they|they're|their|them|that|this|those|these|there)\b", re.IGNORECASE
)
_SPEAKER_INSIDE = re.compile(r"\b(?:i|me|my|mine|myself|we|us|our|ours)\b", re.IGNORECASE)


_IT_OPENS = re.compile(
    r"^(?:it|that|this)(?:\s+|(?='))('s|is|was|has|had|made|makes|felt|feels|took|takes|\w+ed|\w+s)\b",
    re.IGNORECASE,
)


def _pieces(text: str) -> list[tuple[str, bool]]:
    """The turn's sentences (and dash-separated parts), each with whether a dash opened it."""
    out: list[tuple[str, bool]] = []
    last, dashed = 0, False
    for m in _SENTENCES.finditer(text):
        out.append((text[last : m.start()].strip(), dashed))
        last, dashed = m.end(), bool(_DASH.fullmatch(m.group(0)))
    out.append((text[last:].strip(), dashed))
    return [(piece, dash) for piece, dash in out if piece]


# The word after "it's" that makes it "it has": a past participle ("been", "shown", "helped").
_PARTICIPLE = re.compile(
    r"(?i)(?:been|got|gotten|shown|known|grown|taken|given|made|become|brought|taught|done|[a-z]{3,}ed)$"
)


def _elaboration(piece: str, after_dash: bool) -> str | None:
    """What ``piece`` adds to the fact before it, retold, or None when it adds nothing of the
    speaker's: a reaction to the listener, a question, a greeting, a word or two."""
    clean = _TRAILING_THANKS.sub("", _clean(_GREETING.sub("", piece)))
    if not clean or piece.rstrip().endswith("?") or about_listener(clean) or is_hedge(clean):
        return None
    if _SMALL_TALK.match(clean) or len(re.findall(r"[^\W\d_]{3,}", clean)) < 3:
        return None
    if not after_dash and not (_GOES_ON.match(clean) and (_SPEAKER_INSIDE.search(clean) or len(clean) >= 30)):
        return None
    retold = swap_pronouns(clean)
    # "It made me appreciate ..." goes on about the whole fact: ", which made them appreciate ...".
    which = _IT_OPENS.match(retold)
    if which:
        verb = which.group(1).lower()
        rest = retold[which.end() :]
        if verb == "'s":  # "It's been a dream" / "It's shown me" has; "It's a lot of work" is
            verb = "has" if _PARTICIPLE.match(rest.split(maxsplit=1)[0] if rest.split() else "") else "is"
        return f"which {verb}{rest}"
    return retold if retold.startswith("I ") else retold[0].lower() + retold[1:]


def _read_with_sentence_before(found: list[str], facts: list[str], previous: int | None, before: str) -> None:
    """Joins the first of a sentence's ``found`` facts to the sentence before when it says what
    the fact is about, in place: to the fact that sentence gave (``facts[previous]``; "Jess and I
    still climb together. Well, we did, until I tore a finger pulley"), or, when it gave none, to
    its words ("Leila really wants a cat. I'm more of a dog person, but I'm losing that argument")."""
    if not _needs_sentence_before(found[0]):
        return
    if previous is not None:
        if _ELLIPTICAL.match(found[0]) and len(facts[previous]) + len(found[0]) < MAX_JOINED:
            facts[previous] = f"{facts[previous]}; {found.pop(0)}"
        return
    told = _told_before(before) if before else None
    if told is not None and len(told) + len(found[0]) < MAX_JOINED:
        found[0] = f"{told}; {found[0]}"


class RuleExtractor:
    """Deterministic rules; see the module docstring for what is kept and what is dropped.

    The verb lexicon loads in the background from construction on, so a server starts at once
    and its first turn rarely waits for it.

    Args:
        preload: False defers loading the verb lexicon to the first turn.
    """

    def __init__(self, *, preload: bool = True) -> None:
        if preload:
            threading.Thread(target=load_lexicon, name="extract-lexicon", daemon=True).start()

    def extract(self, text: str, *, explicit: bool = False) -> list[str]:
        """The facts of ``text`` (see `Extractor.extract`)."""
        facts: list[str] = []
        text = strip_attachments(text.translate(APOSTROPHES))
        # A past tense elsewhere in the turn dates a "put"/"set"/"read" that has no time of its own.
        past_turn = bool(_PAST_TURN.search(text))
        # The fact the previous piece gave (an index into facts), which a piece that goes on
        # about it ("It made me appreciate ...", "- going for hikes, ...") joins.
        previous: int | None = None
        # A time said in a piece that gave no fact ("Last week was eye-opening. I visited ...").
        when: str | None = None
        before = ""  # the piece before this one
        seen: list[str] = []  # the pieces before this one, nearest last
        # The person the last piece told of as "he" or "she" (None: the turn before names them).
        chain: tuple[str, Person | None] | None = None
        for piece, after_dash in _pieces(text.strip()):
            pronoun = _someone_opens(piece)
            person = None
            if pronoun is not None:
                person = chain[1] if chain and chain[0] == pronoun else _person_before(seen, pronoun)
                chain = (pronoun, person)
            else:
                chain = None
            seen.append(piece)
            found = [
                f
                for f in self._sentence(piece, explicit=explicit, past_turn=past_turn, someone=person)
                if f not in facts
            ]
            # A fact told of someone (see ``someone``) already names whom it is about.
            told_of = person.called if person is not None else pronoun.capitalize() if pronoun else None
            if found and not (told_of and found[0].startswith(told_of + " ")):
                _read_with_sentence_before(found, facts, previous, before)
            if found:
                # "She quit last month. I'll help on weekends": a time said of another clause
                # dates this fact only when the tenses agree.
                # A sentence told of "he" or "she" is not the one the time was said of.
                if (
                    when is not None
                    and pronoun is None
                    and time_phrase(found[0]) is None
                    and not lasts_until_said(found[0])
                    and fits_tense(when, found[0])
                ):
                    found[0] = f"{found[0]} {when}"
                when = None
                facts.extend(found)
                previous = len(facts) - 1
                before = piece
                continue
            more = _elaboration(piece, after_dash) if previous is not None else None
            if more is not None and previous is not None and len(facts[previous]) + len(more) <= MAX_JOINED:
                joint = " -" if after_dash else "," if more.startswith("which ") else ";"
                facts[previous] = f"{facts[previous]}{joint} {more}"
                before = piece
                continue
            previous = None
            when = time_phrase(piece) or when
            before = piece
        return facts

    def _sentence(
        self, sentence: str, *, explicit: bool, past_turn: bool = False, someone: Person | None = None
    ) -> list[str]:
        sentence = answer_riddle(_GREETING.sub("", sentence).strip())
        if not sentence or sentence.endswith("?"):
            return []
        sentence = _PREAMBLE.sub("", sentence).strip()
        if _HYPOTHETICAL.match(sentence):
            return []
        sentence = restore_subject(strip_lead(sentence))
        told = self._told(sentence, explicit=explicit, past_turn=past_turn)
        if told or explicit:
            return told
        # "He's an architect": told of someone else (see ``someone``), when nothing of the speaker is.
        sentence = pronoun_first(_LINK.sub("", sentence))
        return _of_someone(sentence, someone) if opens_with_someone(sentence) else []

    def _told(self, sentence: str, *, explicit: bool, past_turn: bool) -> list[str]:
        """The facts of one prepared sentence about the speaker."""
        if not explicit and not _PERSONAL.search(sentence):
            return []  # most of a chat says nothing of the speaker: no rule below can keep it
        sentence = unfront(sentence, _first_clause_end)
        consequence = _SO_THEN.match(sentence)
        if consequence and not _PERSONAL_START.match(consequence["cause"]):
            # "Digging into politics has been eye-opening, so I'm researching policies": the fact
            # is what the speaker does, and why.
            # "But she's great, so I trust her": the link to the sentence before is no part of why.
            cause = _LINK.sub("", consequence["cause"]) or consequence["cause"]
            first = cause.split()[0]
            if _PRONOUN_START.match(cause) or not (_is_name(first) and not lexicon_knows(first.lower())):
                # "Oakwood is ..." stays; "She'd never seen stairs" is "she'd"
                cause = cause[0].lower() + cause[1:]
            # "..., so last weekend I borrowed a trailer": the main clause may front its time too.
            sentence = f"{unfront(consequence['main'], _first_clause_end).rstrip('.!')} because {cause}"
        conditional = _CONDITION_FIRST.match(sentence)
        if conditional:
            link, condition, main = (
                (conditional["link"], conditional["condition"], conditional["main"])
                if conditional["link"]
                else (conditional["wlink"], conditional["wcondition"], conditional["wmain"])
            )
            link = link.lower()
            # "If I skip coffee, I get headaches" holds; "If I won, I'd buy a boat" is a wish.
            if link == "if" and (
                _MODAL_WORD.search(sentence) or re.search(r"\b(?:were|had)\b", condition, re.I)
            ):
                return []
            sentence = f"{_clean(main)} {link} {condition.strip().rstrip(',')}"
        elif re.match(r"^if\b", sentence, re.I):
            return []
        facts: list[str] = []
        # The whole sentence decides past or present: "I used to smoke but I quit".
        past = mentions_past(sentence) or (past_turn and not _HABIT.search(sentence))
        previous = ""
        for raw in _clauses(sentence):
            fact = _named_thing(previous, raw) if previous else None
            fact = fact or self._clause(unfront(raw.strip()), explicit=explicit, past=past)
            told = (
                _told_before(previous)
                if fact and not facts and previous and _needs_sentence_before(fact)
                else None
            )
            if fact and told is not None:
                fact = f"{told}; {fact}"
            if fact and facts and _lacks_topic(fact) and len(facts[-1]) + len(fact) < MAX_JOINED:
                # "I'm allergic to cats, my eyes swell shut": on its own the second clause has
                # lost what it is about; it stays with the clause that says it.
                facts[-1] = f"{facts[-1]}; {fact}"
            elif fact:
                facts.append(fact)
            previous = raw
        return facts

    def _clause(self, raw: str, *, explicit: bool, past: bool) -> str | None:
        clause = _DANGLING.sub("", _TRAILING_THANKS.sub("", _clean(raw)))
        # "the book you recommended": what the speaker does with it is a fact; only the listener's
        # part is worded without them (the clause would otherwise be about the listener).
        clause = _from_listener(clause)
        if not clause or clause.endswith("?"):
            return None
        if not explicit and not _PERSONAL_START.match(clause) and not _MY_INSIDE.search(clause):
            return None  # neither about the user nor naming something of theirs
        clause = strip_trailing_name(clause)
        if is_low_value(clause) and not (_FIRST_PERSON.match(clause) and _DIGIT.search(clause)):
            return None
        if _QUESTION_START.match(clause) or _REQUEST.match(clause) or _REQUEST_AS_NEED.match(clause):
            return None
        if _ASKING.match(clause):
            return None
        if _SMALL_TALK.match(clause) or _CONDITIONAL.match(clause):
            return None
        if _THIRD_PERSON.match(clause):
            fact = re.sub(r"^the\s+user", "User", clause, flags=re.I)
            return fact[0].upper() + fact[1:]
        if about_listener(clause) or is_hedge(clause) or _is_bare_thing(clause):
            return None
        if not explicit and _OWNED_THING.match(clause):
            return None  # "It's shorbat adas, my mom's recipe": a thing named, nothing told of it
        favourite = _FAVOURITE.match(clause)
        if (
            favourite
            and favourite["thing"].split()[0].lower() not in _NOT_A_NAME
            and not _PERSONAL.search(favourite["thing"])
        ):
            # "Painting landscapes is my favorite" -> "User's favorite is painting landscapes".
            thing = favourite["thing"]
            thing = (
                thing
                if _is_name(thing) and not lexicon_knows(thing.split()[0].lower())
                else thing[0].lower() + thing[1:]
            )
            return f"User's {favourite['what']} {favourite['verb'].lower()} {thing}"
        named = _NAMED_AS_MINE.match(clause)
        if named and _is_name(named["name"]):
            # "Ursula Le Guin is my favourite author" -> "User's favourite author is Ursula Le Guin".
            name = named["name"]
            if " " not in name and lexicon_knows(name.lower()):
                name = name.lower()  # "Painting is my favourite way to relax": a word, not a name
            return f"User's {named['what']} {named['verb'].lower()} {name}"
        if _FIRST_PERSON.match(clause) or _COMPANION.match(clause) or _WE.match(clause):
            retold = to_third_person(clause, past_hint=past)
            return retold if retold and len(retold) >= 2 and says_something(retold) else None
        if explicit and len(clause) >= 2:
            # An explicit save ("Allergic to peanuts") is about the user even without a subject.
            return clause[0].upper() + clause[1:]
        return None


def _someone_opens(piece: str) -> str | None:
    """ "he" or "she" when ``piece`` is told of a third person by that pronoun, else None."""
    sentence = pronoun_first(_LINK.sub("", strip_lead(_GREETING.sub("", piece).strip())))
    return sentence.split(maxsplit=1)[0].split("'")[0].lower() if opens_with_someone(sentence) else None


# How far back in a turn "he" or "she" looks for whom it stands for, in sentences: a person named
# further back is rarely the one meant, and a long turn must not be read once per pronoun.
PERSON_REACH = 4


def _person_before(pieces: list[str], pronoun: str) -> Person | None:
    """Whom ``pronoun`` stands for: the one fitting person of the nearest earlier piece, within
    ``PERSON_REACH``, that names anyone it could be (None when that piece names two, or none does)."""
    for piece in reversed(pieces[-PERSON_REACH:]):
        people = [p for p in people_in(piece) if p.pronoun in (None, pronoun)]
        if people:
            return who(pronoun, people)
    return None


def _of_someone(sentence: str, person: Person | None) -> list[str]:
    """The fact of a sentence told of "he" or "she" (see ``someone``), when it says something."""
    fact = retell(_TRAILING_THANKS.sub("", _clean(sentence)), person)
    if fact is None or len(fact) > MAX_JOINED:
        return []
    body = fact[len(person.called) if person else fact.index(" ") :].strip()
    # "He drew you a cane", "He did", "She usually is": about the listener, or nothing lasting.
    if _YOU.search(body) or not says_something(_ADVERB.sub(" ", body)) or len(body.split()) < 2:
        return []
    return [fact]


_YOU = re.compile(r"\b(?:you|your|yours|you're|you've|you'll|you'd|u|ur)\b", re.I)
_ADVERB = re.compile(r"\b(?:\w+ly|still|too|so|very|just|always|never|really|even)\b", re.I)
