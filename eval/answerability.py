"""Could a model answer from what it was handed? An LLM-free proxy: the share of the gold
answer's content words that a block of text contains ("answer tokens in the block").

Words are lowercase runs of letters and digits; ordinal suffixes are dropped ("7th" -> "7"), a
light plural fold strips a final "s" ("hikes" -> "hike"), and a short list of function words is
removed from the answer. An answer with no content word left is not scored.

The same measure is taken of the baselines a memory layer has to beat, each handed to the model
with the day it was said: the person's five (and ten) best raw turns by BM25 and by MiniLM, the
question's evidence turns themselves (perfect retrieval of raw turns) and the whole conversation
(the ceiling).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[a-z0-9]+")
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "he",
        "she",
        "they",
        "them",
        "his",
        "her",
        "their",
        "him",
        "i",
        "me",
        "my",
        "we",
        "our",
        "you",
        "your",
        "not",
        "no",
        "yes",
        "did",
        "do",
        "does",
        "has",
        "have",
        "had",
        "will",
        "would",
        "can",
        "could",
        "there",
        "than",
        "then",
        "so",
        "if",
        "into",
        "about",
        "up",
        "out",
        "also",
        "just",
    ]
)


def _fold(word: str) -> str:
    m = _ORDINAL.match(word)
    if m:
        return m.group(1)
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def words(text: str) -> set[str]:
    return {_fold(w) for w in _WORD.findall(text.lower())}


def answer_words(answer: str) -> set[str]:
    return {w for w in words(answer) if w not in FUNCTION_WORDS}


def coverage(answer: str, block: str) -> float | None:
    """The share of ``answer``'s content words found in ``block``; None when the answer has none."""
    wanted = answer_words(answer)
    if not wanted:
        return None
    return len(wanted & words(block)) / len(wanted)


def dated_lines(lines: Iterable[tuple[str, str, str]]) -> str:
    """Raw turns as a model would be handed them: ``- [day] Speaker: text`` per (day, speaker, text)."""
    return "\n".join(f"- [{day}] {speaker}: {text}" for day, speaker, text in lines)


def names_both(question: str, speakers: tuple[str, str]) -> bool:
    lowered = question.lower()
    return all(re.search(rf"\b{re.escape(s.lower())}\b", lowered) for s in speakers)
