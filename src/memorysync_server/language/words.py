"""Text as retrieval reads it: stopwords, words, stems, and first-person words retold."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .detect import reads_as_english
from .scripts import CAPITALISED

__all__ = [
    "FTS_WORD",
    "STOPWORDS",
    "content_words",
    "retell_first_person",
    "searched_text",
    "stem",
    "third_person",
    "wordset",
]


def wordset(text: str) -> frozenset[str]:
    """The words of a list written as one string: ``wordset("a an the")``."""
    return frozenset(text.split())


STOPWORDS = wordset(
    """a an the and or but so if then than to of in on at by for with from into onto about as is am are was
    were be been being do does did doing have has had having i i'm im me my mine myself we us our you your
    yours he him his she her it its they them their this that these those there here what which who whom whose
    when where why how can could would should will shall may might must not no yes ok okay please thanks thank
    just really very also too any some all each every user user's users's s t d ll m re ve let lets let's
    tell give show know want need like get got make about up down out over again more most much many
    i'd i'll i've it's what's that's don't doesn't didn't can't won't isn't aren't"""
)

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
FTS_WORD = re.compile(r"[^\W_]+")


def stem(word: str) -> str:
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + keep
    return word


def content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]


def retell_first_person(text: str, pronouns: re.Pattern[str], forms: Mapping[str, str]) -> str:
    """``text`` with each first-person word that ``pronouns`` finds replaced, in one pass, by its
    entry in ``forms``: the word as written, else in lower case with single spaces ("I  Am")."""

    def retold(m: re.Match[str]) -> str:
        word = m.group(0)
        if m.string[m.start() - 1 : m.start()] == "-" or m.string[m.end() : m.end() + 1] == "-":
            return word  # part of a word: "me-time", "do-it-yourself" (I-95 is a road)
        return forms.get(word) or forms[" ".join(word.lower().split())]

    return pronouns.sub(retold, text)


# The pattern decides which spellings are retold ("I'm", "Im" and "im", but not "i'm").
_PROMPT_PRONOUNS = re.compile(r"\b(?:I'm|I am|[Ii]m|I've|I'd|I'll|[Mm]y|[Mm]ine|[Mm]yself|[Mm]e|I)\b")
_PROMPT_FORMS = {
    "i'm": "the user is",
    "i am": "the user is",
    "im": "the user is",
    "i've": "the user has",
    "i'd": "the user would",
    "i'll": "the user will",
    "my": "the user's",
    "mine": "the user's",
    "myself": "the user",
    "me": "the user",
    "i": "the user",
}


def third_person(prompt: str) -> str:
    """``prompt`` with first-person pronouns replaced by "the user" (grammar left as it is); a
    prompt in another language as it is (Spanish and French "me" is no English "me")."""
    if not reads_as_english(prompt):
        return prompt
    return retell_first_person(prompt, _PROMPT_PRONOUNS, _PROMPT_FORMS)


# A name the speaker calls the listener by ("Thanks, Mel!", "Wow Caroline, that looks amazing!")
# says nothing about the speaker, yet it made every question naming the listener (or, in a
# turn that names its own speaker, the person asked about) find the turn: on LoCoMo dev one
# "Glad you agree, Caroline." led five blocks about Caroline. Days and months stay ("Yes, Sunday!").
_NOT_NAMES = (
    r"(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|June|"
    r"July|August|September|October|November|December)\b)"
)
_ADDRESS_AFTER_WORD = re.compile(
    r"\b((?i:hey|hi|hello|thanks|thank\s+you|wow|yeah|yes|yep|yup|oh|aw|ok|okay|sure|totally|absolutely|"
    r"congrats|agree|agreed))\b,?\s+" + _NOT_NAMES + CAPITALISED + r"\b(?=\s*[,!.?])"
)
_ADDRESS_AT_END = re.compile(r",\s*" + _NOT_NAMES + CAPITALISED + r"\s*(?=[!?])")


def searched_text(text: str, asked: str | None = None) -> str:
    """What a stored memory is embedded as: its text without the names it addresses the listener
    by, after the words it is read with (``asked``: a kept turn's ``metadata.asked``, a fact's
    ``metadata.said_in``). The memory keeps its text as written; only its vector leaves the
    address out and reads those words."""
    searched = _ADDRESS_AT_END.sub("", _ADDRESS_AFTER_WORD.sub(r"\1", text))
    return f"{asked} {searched}" if asked else searched
