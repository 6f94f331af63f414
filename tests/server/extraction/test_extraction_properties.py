"""The extractor never raises, whatever a person types: property-based, over realistic chat text
and the ways people mangle it (apostrophe and quote variants, punctuation after pronouns, emoji,
other scripts, very long turns, empty clauses).

`make test` runs 10,000 generated turns (about half a minute), and 2,500 more read with a turn
before them; `make fuzz` runs 200,000 (``EXTRACTION_EXAMPLES``). A failure prints the smallest text that breaks it (hypothesis shrinks it).
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memorysync_server.extraction import RuleExtractor, resolve, resolve_referents

DATA = Path(__file__).resolve().parents[3] / "eval" / "data"


def _corpus() -> list[str]:
    """Chat turns written for this project: statements, labelled extraction texts, the chats."""
    texts: list[str] = []
    for name in ("statements.jsonl", "extraction.jsonl", "extraction_chat.jsonl", "questions.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            texts.append(row.get("text") or row.get("question") or "")
    for chat in sorted((DATA / "chats").glob("*.json")):
        raw = json.loads(chat.read_text(encoding="utf-8"))
        conversation = raw.get("conversation", raw)
        texts += [
            t["text"]
            for key, turns in conversation.items()
            if key.startswith("session_") and isinstance(turns, list)
            for t in turns
        ]
    return [t for t in texts if t]


CORPUS = _corpus()
APOSTROPHES = ["'", "\u2019", "\u2018", "`", "\u00b4", "\u2032", "\u02bc", "\uff07", "\u2033", '"', "\u201c"]
PRONOUNS = re.compile(r"\b(I|We|we|My|my|I'm|We've|It|it|They|they)\b")
INSERTS = [
    ",", ";", ":", " - ", " — ", "...", "!!", "?", "(", ")", "\u200b", "\u00a0", "\n", "\t", "  ",
    "😊", "🎉👍", "🏳️‍🌈", "中文", "日本語です", "שלום", "مرحبا", "Привет", "é", "ß", "İ", "\u0301",
    "I", "we", "my", "it", "that", "yesterday", "last week", "in 2019", "2 days ago", "'s", "n't",
]  # fmt: skip


@st.composite
def chat_turns(draw: st.DrawFn) -> str:
    """One or more corpus turns, then a few mutations of the kinds people type."""
    text = " ".join(draw(st.lists(st.sampled_from(CORPUS), min_size=1, max_size=4)))
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 6))
        if kind == 0:  # another apostrophe or quote
            text = text.replace("'", draw(st.sampled_from(APOSTROPHES)))
        elif kind == 1:  # punctuation right after a pronoun: "We, the whole family, ..."
            mark = draw(st.sampled_from([",", ";", ":", "`", "'", "!", " ,"]))
            text = PRONOUNS.sub(lambda m, mark=mark: m.group(0) + mark, text, count=draw(st.integers(1, 3)))
        elif kind == 2:  # something inserted anywhere
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(INSERTS)) + text[at:]
        elif kind == 3:  # a cut anywhere (half a word, a clause with nothing in it)
            a = draw(st.integers(0, len(text)))
            b = draw(st.integers(a, min(len(text), a + 40)))
            text = text[:a] + text[b:]
        elif kind == 4:  # case mangled
            text = draw(st.sampled_from([text.upper(), text.lower(), text.title(), text.swapcase()]))
        elif kind == 5:  # empty clauses
            text = text.replace(",", draw(st.sampled_from([", ,", ",,", ", and ,", ", - ,"])), 2)
        else:  # arbitrary characters
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.text(max_size=8)) + text[at:]
    return text


EXAMPLES = int(os.environ.get("EXTRACTION_EXAMPLES", "10000"))
extractor = RuleExtractor()
SAID = datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(chat_turns())
def test_the_extractor_never_raises_on_chat_text(text: str) -> None:
    facts = extractor.extract(text)
    assert all(isinstance(fact, str) and fact for fact in facts)
    for fact in facts:
        resolve(fact, SAID)  # dating a fact never raises either


@settings(
    max_examples=EXAMPLES // 4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(chat_turns(), chat_turns())
def test_facts_read_with_the_turn_before_never_raise(before: str, text: str) -> None:
    # "He's an architect" after "What does Rui do?": the turn before names whom a fact is told of.
    for fact in extractor.extract(text):
        read = resolve_referents(fact, text, [before])
        assert isinstance(read, str) and read
        resolve(read, SAID)
    resolve(text, SAID, style="annotate")  # a kept turn, quoted in a block with its dates


@settings(
    max_examples=EXAMPLES // 6, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(st.lists(st.sampled_from(CORPUS), min_size=20, max_size=80).map(" ".join))
def test_very_long_turns_extract_without_error(text: str) -> None:
    extractor.extract(text)


@pytest.mark.parametrize(
    "text",
    [
        "We, the whole family, went to Paris last year.",
        "We`ve been busy",
        "I`m allergic to peanuts",
        "We´re moving to Oslo",
        "I, for one, love it",
        "My, my, what a day",
        "It, honestly, was great",
    ],
)
def test_the_reported_crashes_extract(text: str) -> None:
    extractor.extract(text)


def test_every_apostrophe_reads_as_one() -> None:
    for mark in ("\u2019", "`", "\u00b4", "\u02bc"):
        assert extractor.extract(f"I{mark}m allergic to peanuts") == ["User is allergic to peanuts"]
