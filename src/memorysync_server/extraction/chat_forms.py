"""Chat phrasing reshaped into the plain first-person sentences the extractor reads.

People chatting put things before the subject ("Hey Maria, ...", "On weekends I ..."), leave the
subject out ("Went camping last weekend"), end on the listener's name ("..., Gina") and attach
photos ("[shares a photo: ...]"). Each function here undoes one of these, so the rules that
retell a statement only ever see "I ..." or "My ..." at the start.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..language.scripts import CAPITALISED, UPPER
from .third_person import is_participle, is_plain_past, lexicon_knows

# A photo or link the chat client described: what the picture shows is not something the person said.
_ATTACHMENT = re.compile(r"(?<!\s)\s*\[(?:shares?|shared|sends?|sent|posts?|posted)\b[^\]]*\]", re.IGNORECASE)

_FIRST_PERSON_START = r"(?i:i|i'm|im|i've|i'd|i'll|my|me|we|we're|we've|we'll|we'd)\b"
# Openers that change nothing, and a listener's name, before the statement: "Wow, Gina, I'm ...".
_OPENERS = (
    r"(?:(?i:honestly|actually|basically|personally|frankly|seriously|also|oh|so|well|anyway|anyways|and|but|"
    r"plus|tbh|ngl|um|uh|ah|aw|aww|awww|ooh|wow|whoa|yeah|yes|yep|yup|no|nope|nah|ok|okay|lol|haha|hah|ha|"
    r"hehe|hmm|yay|sure|totally|true|right|cool|nice|great|awesome|congrats|omg|ugh|hey|hi|hello|oof|"
    r"meanwhile|you\s+know|y'know|ya\s+know|guess\s+what|(?:it\s+)?turns\s+out(?:\s+that)?|"
    # "Good news: I got the job": the announcement of a statement, then the statement.
    r"(?:good|great|big|exciting|bad|sad|some|fun|huge|happy|other|more)\s+news(?:\s+is)?)\b[\s,!.:-]*)*"
    rf"(?:(?P<name>{CAPITALISED})\s*(?:[,!.:-]+\s*|$))?"
)
# "Oh, and Jonah and I are going ...": the subject the speaker shares starts the statement too.
_LEAD = re.compile(
    "^" + _OPENERS + "(?=" + _FIRST_PERSON_START + rf"|(?-i:{UPPER}[\w'-]*)\s+and\s+(?:I|me)\b)"
)
_REACTION = re.compile("^" + _OPENERS)
_TRAILING_NAME = re.compile(rf"(?<!\S)(?P<before>\S+),\s*(?P<name>{CAPITALISED})\s*[.!]*$")

# "Mondays I help at the library": a day of the week alone is when, as "on Mondays" is.
_WEEKDAYS = r"(?-i:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?)"
# A short phrase of time or place before the subject: "On weekends I volunteer at the food bank".
_FRONT_WORDS = (
    r"(?:on|in|at|during|after|before|since|for|every|each|last|this|next|yesterday|today|tonight|tomorrow|"
    r"weekends|" + _WEEKDAYS + "|"
    r"nowadays|these\s+days|sometimes|usually|often|once|twice|back|growing\s+up|as\s+a|over|around|"
    r"right\s+now|just\s+(?=yesterday|today|tonight|last|this)|"
    r"most|a\s+few|a\s+couple|few|one|two|three|four|five|six|several|earlier|later|throughout|"
    r"at\s+home|at\s+work|outside|between|until)"
)
# "Dana and I", "my sister and I": a subject the speaker shares, which the fronted phrase must
# not swallow ("Last week Anthony and I went ..." -> "Anthony and I went ... last week").
_COMPANION = rf"(?:(?-i:{UPPER}[\w'-]*)|my\s+(?:[\w'-]+\s+)?[\w'-]+)\s+and\s+"
_CLEFT_VERB = (
    r"\s+(?:had|have|made|set|got|did|learned|learnt|realized|realised|discovered|noticed|wanted|meant)"
    r"\s+(?:was|is)\b"
)
_FRONTED = re.compile(
    r"^(?P<front>" + _FRONT_WORDS + r"\b(?!['’])[^,;]{0,40}?)(?:,\s*|\s+)"
    # "One idea I had was ...": "I had" describes the noun before it (see _CLEFT), nothing fronted.
    r"(?P<main>(?:" + _COMPANION + r")?(?:i|i'm|im|i've|i'd|i'll)\b(?!" + _CLEFT_VERB + r").+)$"
    r"|^(?P<front2>" + _FRONT_WORDS + r"\b(?!['’])[^,;]{0,40}?),\s*(?P<main2>(?:my|we|we're|we've)\b.+)$",
    re.IGNORECASE | re.S,
)
# "Last weekend we went hiking", "Yesterday my sister visited": without a comma, "we" or "my"
# starts the statement only after a phrase that is a time and nothing more ("On my birthday I ..."
# is not "my birthday I ...").
_FRONTED_TIME = re.compile(
    r"^(?P<front>(?:just\s+)?(?:yesterday|today|tonight|this\s+(?:morning|afternoon|evening)|last\s+night|"
    r"(?:last|this|next)\s+(?:week|weekend|month|year|spring|summer|fall|autumn|winter|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"(?:a|one|two|three|four|five|six|a\s+few|a\s+couple(?:\s+of)?)\s+(?:days?|weeks?|months?|years?)\s+ago))"
    r"\s+(?P<main>(?:my|we|we're|we've|we'd|we'll)\b.+)$",
    re.IGNORECASE | re.S,
)
_CONJUNCTIONS = frozenset(["since", "after", "before", "until", "once", "as"])
# "So last weekend I ...": a linking word before a fronted phrase links, it says nothing.
_LINK_BEFORE_FRONT = re.compile(r"^(?:so|and|but|also|plus|oh|well|anyway|then)\b,?\s+", re.IGNORECASE)
# "Luckily, I ...": the speaker's comment on the fact, not part of it.
_COMMENT_ADVERB = re.compile(
    r"^(?:luckily|fortunately|unfortunately|sadly|thankfully|surprisingly|funnily|obviously|clearly|"
    r"apparently|admittedly|ironically|weirdly|oddly|interestingly|happily|naturally)\b,?\s+(?=i\b|i')",
    re.IGNORECASE,
)
# "Recently, I started ..." -> "I recently started ...": an adverb of time that sits after the subject.
_TIME_ADVERB = re.compile(
    r"^(?P<adverb>recently|lately|finally|eventually|currently|originally|initially|now)\b,?\s+"
    r"(?P<subject>i(?:'m|'ve|'d|'ll)?|we(?:'re|'ve|'d|'ll)?)\s+(?P<rest>.+)$",
    re.IGNORECASE | re.S,
)


# "Guess who got the job?": a riddle whose answer is the speaker, so a statement about them.
_GUESS_WHO = re.compile(
    r"^(?:and\s+)?(?:guess|you'll\s+never\s+guess)\s+who(?P<aux>'s|\s+is|\s+has|\s+just)?\s+(?P<rest>[^?]+?)\s*[?!.]*$",
    re.IGNORECASE,
)
_GUESS_SUBJECT = {"'s": "I'm", "is": "I'm", "has": "I've", "just": "I just"}
_THEMSELVES = re.compile(r"\b(?:herself|himself|themselves|themself)\b", re.IGNORECASE)


def answer_riddle(sentence: str) -> str:
    """ "Guess who walked to the bakery by herself?" -> "I walked to the bakery by myself."; others unchanged."""
    m = _GUESS_WHO.match(sentence.strip())
    if not m:
        return sentence
    subject = _GUESS_SUBJECT.get((m["aux"] or "").strip().lower(), "I")
    return f"{subject} {_THEMSELVES.sub('myself', m['rest'])}."


def strip_attachments(text: str) -> str:
    """``text`` without the "[shares a photo: ...]" descriptions a chat client appends."""
    return _ATTACHMENT.sub("", text)


def _is_name(word: str) -> bool:
    # A capitalised word English doesn't know ("Gina", "Jon"): a person addressed, not a word of the sentence.
    return not lexicon_knows(word.lower())


def strip_lead(sentence: str) -> str:
    """``sentence`` from its subject on, without reactions or a name before it ("Yeah Jon, I'm ...")."""
    m = _LEAD.match(sentence)
    if not m or not m.group(0):
        return sentence
    if m["name"] and not _is_name(m["name"]):
        return sentence
    return sentence[m.end() :]


def strip_reaction(sentence: str) -> str:
    """``sentence`` without the reactions and the name it opens with, whatever follows:
    "Wow, Caroline, that looks amazing!" -> "that looks amazing!"; "Thanks, Mel!" -> ""."""
    m = _REACTION.match(sentence)
    if not m or not m.group(0) or (m["name"] and not _is_name(m["name"])):
        return sentence
    return sentence[m.end() :]


def strip_trailing_name(clause: str) -> str:
    """``clause`` without a name it ends by addressing ("I hope so, Gina"), but "Portland, Oregon" stays."""
    m = _TRAILING_NAME.search(clause)
    if not m or m["before"][:1].isupper() or not _is_name(m["name"]):
        return clause
    return clause[: m.start("before")] + m["before"]


_STILL = frozenset(["still", "currently", "just"])


_WHEN_FOLLOWS = re.compile(
    r"(?:(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple(?:\s+of)?|\d+)\s+"
    r"(?:days?|weeks?|months?|years?)\s+ago|last\s+(?:week|month|year|spring|summer|fall|autumn|winter)|"
    r"in\s+(?:19|20)\d\d|yesterday)\b",
    re.IGNORECASE,
)


_HOW_LONG = re.compile(
    r"(?:so\s+|way\s+|too\s+|far\s+too\s+)*(?:ages|forever|a\s+while|long|a\s+long\s+time|"
    r"(?:a\s+few\s+|some\s+|many\s+)?(?:years|months|weeks|days))\b(?!\s+(?:of|at|in)\b)",
    re.I,
)


def restore_subject(sentence: str) -> str:
    """ "Went camping last weekend" -> "I went camping last weekend"; other sentences unchanged.

    Only plain past forms ("went", "started") and "been"/"just" count: a base form at the start is
    an instruction ("Send me ..."), and a form that is also an adjective ("Excited to ...") is a feeling.
    """
    words = sentence.split(maxsplit=2)
    if not words or not words[0][:1].isupper():
        return sentence
    first = words[0].lower().rstrip(",")
    if first == "been" and len(words) > 1 and _HOW_LONG.match(sentence.split(maxsplit=1)[1]):
        # "Been ages since we talked!" drops "It's", not "I've".
        return "It's " + sentence[0].lower() + sentence[1:]
    if first == "been" and len(words) > 1:
        return "I've " + sentence[0].lower() + sentence[1:]
    if first in _STILL and len(words) > 1 and is_participle(words[1].lower().rstrip(",.!")):
        # "Still working on the studio": "I'm still working on the studio".
        return "I'm " + sentence[0].lower() + sentence[1:]
    if first == "just" and len(words) > 1 and words[1].lower() == "been":
        return "I've " + sentence[0].lower() + sentence[1:]
    if first == "just" and len(words) > 1 and is_plain_past(words[1].lower()):
        return "I " + sentence[0].lower() + sentence[1:]
    if is_plain_past(first):
        return "I " + sentence[0].lower() + sentence[1:]
    if first.endswith("ed") and len(words) > 1 and _WHEN_FOLLOWS.match(sentence.split(maxsplit=1)[1]):
        # "Retired two years ago this spring": a form that could be a feeling ("Excited to ...")
        # is an event when a time follows it.
        return "I " + sentence[0].lower() + sentence[1:]
    return sentence


# "One idea I had was to ..." is "My idea was to ..."; "One thing I learned was to ..." is "I learned to ...".
_CLEFT_AIM = re.compile(
    r"^(?:one|the|my|a|another)\s+(?:(?:big|main|first|other|new|crazy)\s+)?"
    r"(?P<noun>idea|plan|goal|dream|hope|aim|wish|resolution)\s+(?:that\s+)?i(?:'ve|\s+have)?\s+"
    r"(?:had|have|made|set|got)\s+(?P<verb>is|was)\s+(?P<rest>.+)$",
    re.IGNORECASE | re.S,
)
_CLEFT_LEARNT = re.compile(
    r"^(?:one|the|a)\s+(?:(?:big|main|first|biggest|other)\s+)?(?:thing|lesson)\s+(?:that\s+)?i(?:'ve)?\s+"
    r"(?P<verb>learned|learnt|realized|realised|discovered|noticed)\s+(?:is|was)\s+(?P<rest>.+)$",
    re.IGNORECASE | re.S,
)


def unfront(sentence: str, first_clause_end: Callable[[str], int | None] | None = None) -> str:
    """ "On weekends I volunteer ..." -> "I volunteer ... on weekends"; others unchanged.

    ``first_clause_end`` finds where a sentence's first clause ends: the fronted phrase stays with that
    clause ("Yesterday I baked cakes, and I crunched the numbers" -> "I baked cakes yesterday, and
    I crunched the numbers"), not with the sentence's last one."""
    sentence = _COMMENT_ADVERB.sub("", sentence)
    m = _CLEFT_AIM.match(sentence)
    if m:
        return f"My {m['noun'].lower()} {m['verb'].lower()} {m['rest']}"
    m = _CLEFT_LEARNT.match(sentence)
    if m:
        return f"I {m['verb'].lower()} {m['rest']}"
    m = _TIME_ADVERB.match(sentence)
    if m:
        return f"{m['subject']} {m['adverb'].lower()} {m['rest']}"
    linked = _LINK_BEFORE_FRONT.match(sentence)
    if linked and (_FRONTED.match(sentence[linked.end() :]) or _FRONTED_TIME.match(sentence[linked.end() :])):
        sentence = sentence[linked.end() :]
    m = _FRONTED.match(sentence) or _FRONTED_TIME.match(sentence)
    if not m:
        return sentence
    front = (m["front"] or m["front2"]).strip()
    main = (m["main"] or m["main2"]).strip()
    if front.lower() in _CONJUNCTIONS and "," not in main:
        return sentence  # "Since I was 17 or so.": a clause that leans on the sentence before
    # "Just yesterday I adopted a cat": "just" stresses the time, the fact keeps the time.
    front = re.sub(r"^just\s+", "", front, flags=re.IGNORECASE)
    if front.lower() == "weekends":
        front = "on weekends"
    elif re.fullmatch(_WEEKDAYS, front):
        front = f"on {front}"
    elif not re.match(_WEEKDAYS, front):  # a day's name keeps its capital ("Monday mornings")
        front = f"{front[0].lower()}{front[1:]}"
    cut = first_clause_end(main) if first_clause_end is not None else None
    if cut is not None:
        return f"{main[:cut].rstrip(' ,')} {front}{main[cut:]}"
    tail = re.match(r"^(.*?)([.!]*)$", main, re.S)
    body, punct = (tail.group(1), tail.group(2)) if tail else (main, "")
    return f"{body.rstrip(' ,')} {front}{punct}"
