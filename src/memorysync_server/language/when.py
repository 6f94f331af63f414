"""The days a question asks about: "What did I do on 16 August 2023?", "... last week?".

A memory is said on a day (its turn's ``occurred_at``, else when it was stored), and a question
that names a day or a span usually means what was said then; search raises those memories
(``retrieval.ranking.said_then``). Read here, in English, and only in a sentence that asks (a
"?", or "what", "when", "remind me" ... first):

- a date with its year ("16 August 2023", "August 16th, 2023", "2023-08-16"), and a month with
  its year ("in August 2023");
- the past, counted from today: "yesterday", "last night", "N days/weeks/months ago",
  "last Friday", "last weekend", "last week", "last month".

A named day stands for the day before and after too: the person's calendar and the clock that
stamped the memory need not agree at midnight. A long message is read in its last
``READ_CHARS`` characters, where its question usually is. Left unread, because they name no span of what was
said: a year alone; "today", "this week" and "on Friday", which ask about plans as often as about
what was said; a day or month without a year ("in June"); habits ("on Sunday afternoons"); and a
statement ("I moved here last month" tells when something happened, it does not ask).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from .calendar_math import COUNTS, MONTHS, WEEKDAYS, add_months, last_weekend, weekday_before

__all__ = ["READ_CHARS", "asked_days"]

READ_CHARS = 2000


# Three-letter forms too ("Aug 16, 2023").
_MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_WEEKDAY = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_COUNT = r"(\d{1,2}|an?|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few)"

Span = tuple[date, date]
# A sentence that asks: it ends in "?" or opens as a question or a request to be told.
_SENTENCE = re.compile(r"[^.!?]*(?:[.!?]+|$)")
_ASKS = re.compile(
    r"\s*(?:what|when|where|who|whom|whose|which|how|why|did|do|does|was|were|is|are|have|has|had|can|could"
    r"|tell me|remind me|show me|list)\b",
    re.IGNORECASE,
)


def _month(name: str) -> int:
    return [m[:3].lower() for m in MONTHS].index(name[:3].lower()) + 1


def _around(named: date) -> Span:
    return named - timedelta(days=1), named + timedelta(days=1)


def _day(year: int, month: int, day: int) -> Span | None:
    try:
        return _around(date(year, month, day))
    except ValueError:  # "31 June 2023"
        return None


def _whole_month(year: int, month: int) -> Span:
    following = date(year + month // 12, month % 12 + 1, 1)
    return date(year, month, 1), following - timedelta(days=1)


def _months_back(today: date, months: int) -> Span:
    first = add_months(today, -months)
    return _whole_month(first.year, first.month)


def _count(raw: str) -> int:
    return int(raw) if raw.isdigit() else COUNTS[raw]


def _ago(m: re.Match[str], today: date) -> Span | None:
    n, unit = _count(m.group(1).lower()), m.group(2).lower()
    if unit.startswith("day"):
        return _around(today - timedelta(days=n))
    if unit.startswith("week"):
        around = today - timedelta(weeks=n)
        return around - timedelta(days=3), around + timedelta(days=3)
    return _months_back(today, n)


def _last_weekend(today: date) -> Span:
    saturday = last_weekend(today)
    return saturday, saturday + timedelta(days=1)


def _monday(today: date) -> date:
    return today - timedelta(days=today.weekday())


_RULES: list[tuple[str, Callable[[re.Match[str], date], Span | None]]] = [
    (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m, t: _day(int(m[1]), int(m[2]), int(m[3]))),
    (
        rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}\.?,?\s+(\d{{4}})\b",
        lambda m, t: _day(int(m[3]), _month(m[2]), int(m[1])),
    ),
    (rf"\b{_MONTH}\.?\s+{_DAY},?\s+(\d{{4}})\b", lambda m, t: _day(int(m[3]), _month(m[1]), int(m[2]))),
    (rf"\b{_MONTH}\.?,?\s+(\d{{4}})\b", lambda m, t: _whole_month(int(m[2]), _month(m[1]))),
    (r"\bthe day before yesterday\b", lambda m, t: _around(t - timedelta(days=2))),
    (r"\b(?:yesterday|last night)\b", lambda m, t: _around(t - timedelta(days=1))),
    (rf"\b{_COUNT}\s+(days?|weeks?|months?)\s+ago\b", _ago),
    (
        rf"\b(?:last|this past)\s+{_WEEKDAY}\b(?!\s*(?:nights|mornings|evenings|afternoons)\b)",
        lambda m, t: _around(weekday_before(t, WEEKDAYS.index(m[1].lower()))),
    ),
    (r"\b(?:last|this past) weekend\b", lambda m, t: _last_weekend(t)),
    (r"\blast week\b", lambda m, t: (_monday(t) - timedelta(weeks=1), _monday(t) - timedelta(days=1))),
    (r"\blast month\b", lambda m, t: _months_back(t, 1)),
]
_COMPILED = [(re.compile(pattern, re.IGNORECASE), read) for pattern, read in _RULES]
# Every rule reads one of these.
_HINT = re.compile(r"\d|yesterday|last|ago\b|past", re.IGNORECASE)
# The rules before this one read a year.
_WITH_YEAR = 4


def _asks(prompt: str, at: int) -> bool:
    """Whether the sentence of ``prompt`` that holds position ``at`` asks."""
    for sentence in _SENTENCE.finditer(prompt):
        if sentence.start() <= at < max(sentence.end(), sentence.start() + 1):
            return sentence.group().rstrip().endswith("?") or _ASKS.match(sentence.group()) is not None
    return False


def asked_days(prompt: str, today: date) -> Span | None:
    """The first and last day the prompt asks about, or None when it names no such span."""
    # A long message is read in its last characters, where its question usually sits: every
    # rule scans the text, and a pasted page must not cost a recall milliseconds.
    prompt = prompt[-READ_CHARS:]
    if _HINT.search(prompt) is None:  # most prompts: one scan instead of every rule's
        return None
    found: list[tuple[bool, int, Span]] = []
    for rule, (pattern, read) in enumerate(_COMPILED):
        match = pattern.search(prompt)
        if match is not None and _asks(prompt, match.start()):
            span = read(match, today)
            if span is not None:
                found.append((rule >= _WITH_YEAR, match.start(), span))
    # A date with its year first ("last weekend before April 10, 2023" asks about that April),
    # then the first phrase in the prompt; where two rules read the same words, the fuller one
    # (listed first: min keeps the first of equals).
    return min(found, key=lambda item: item[:2])[2] if found else None
