"""Relative time phrases resolved against when they were said.

"I went to a support group yesterday", said on 8 May 2023, is stored as "... on 7 May 2023": a
fact read a year later must still say when it happened, and a model asked "when did she go?"
can only answer from a date. Two styles: ``replace`` (facts: the phrase becomes the date) and
``annotate`` (what the person said, kept verbatim: the date follows the phrase in brackets).

Only phrases with one reading are resolved; "on Friday", "recently" or "the other day" are left
as they are rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

__all__ = ["day", "resolve"]

_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
}
# A phrase right after one of these takes no "on"/"in" of its own ("since last year" -> "since 2022").
_PREPOSITIONS = frozenset(
    [
        "since",
        "from",
        "until",
        "till",
        "before",
        "after",
        "by",
        "of",
        "during",
        "around",
        "about",
        "on",
        "in",
        "at",
        "for",
        "than",
        "as",
        "to",
    ]
)


def day(d: date) -> str:
    """7 May 2023: day first, month in words, so no reader mistakes it for 5 July."""
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"


def _month(d: date) -> str:
    return f"{_MONTHS[d.month - 1]} {d.year}"


def _add_months(d: date, months: int) -> date:
    index = d.year * 12 + d.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _weekday_before(d: date, weekday: int) -> date:
    back = (d.weekday() - weekday) % 7 or 7
    return d - timedelta(days=back)


def _weekday_after(d: date, weekday: int) -> date:
    ahead = (weekday - d.weekday()) % 7 or 7
    return d + timedelta(days=ahead)


# Each rule: a pattern and a function of (match, the day it was said) giving (preposition, when).
Rule = tuple[re.Pattern[str], Callable[[re.Match[str], date], tuple[str, str]]]

_NUM = r"(\d{1,2}|a couple of|a couple|couple of|a few|few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_WD = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"


def _ago(m: re.Match[str], said: date) -> tuple[str, str]:
    raw = m.group(1).lower()
    n = int(raw) if raw.isdigit() else _NUMBERS[raw]
    unit = m.group(2).lower()
    if unit.startswith("day"):
        return "on", day(said - timedelta(days=n))
    if unit.startswith("week"):
        return "around", day(said - timedelta(weeks=n))
    if unit.startswith("month"):
        return "in", _month(_add_months(said, -n))
    return "in", str(said.year - n)


def _rules() -> list[Rule]:
    def r(pattern: str, fn: Callable[[re.Match[str], date], tuple[str, str]]) -> Rule:
        return re.compile(rf"\b{pattern}\b", re.IGNORECASE), fn

    return [
        r(r"the day before yesterday", lambda m, d: ("on", day(d - timedelta(days=2)))),
        r(r"the day after tomorrow", lambda m, d: ("on", day(d + timedelta(days=2)))),
        r(r"yesterday", lambda m, d: ("on", day(d - timedelta(days=1)))),
        r(r"last night", lambda m, d: ("on", f"the night of {day(d - timedelta(days=1))}")),
        r(r"tonight|this (?:morning|afternoon|evening)|today", lambda m, d: ("on", day(d))),
        r(r"tomorrow", lambda m, d: ("on", day(d + timedelta(days=1)))),
        r(
            rf"(?:last|this past) {_WD}",
            lambda m, d: ("on", day(_weekday_before(d, _WEEKDAYS.index(m.group(1).lower())))),
        ),
        r(
            rf"next {_WD}",
            lambda m, d: ("on", day(_weekday_after(d, _WEEKDAYS.index(m.group(1).lower())))),
        ),
        r(
            r"(?:last|this past) weekend",
            lambda m, d: ("on", f"the weekend of {day(_weekday_before(d, 5))}"),
        ),
        r(r"this weekend", lambda m, d: ("on the weekend of", day(_weekday_after(d - timedelta(days=1), 5)))),
        r(
            r"next weekend",
            lambda m, d: ("on the weekend of", day(_weekday_after(d, 5) + timedelta(weeks=1))),
        ),
        r(r"last week", lambda m, d: ("in", f"the week before {day(d)}")),
        r(r"this week", lambda m, d: ("in", f"the week of {day(d)}")),
        r(r"next week", lambda m, d: ("in", f"the week after {day(d)}")),
        r(r"last month", lambda m, d: ("in", _month(_add_months(d, -1)))),
        r(r"this month", lambda m, d: ("in", _month(d))),
        r(r"next month", lambda m, d: ("in", _month(_add_months(d, 1)))),
        r(r"last year", lambda m, d: ("in", str(d.year - 1))),
        r(r"this year", lambda m, d: ("in", str(d.year))),
        r(r"next year", lambda m, d: ("in", str(d.year + 1))),
        r(rf"{_NUM} (days?|weeks?|months?|years?) ago", _ago),
    ]


_RULES = _rules()
_ANY = re.compile("|".join(f"(?:{rule.pattern})" for rule, _ in _RULES), re.IGNORECASE)
_PRECEDING_WORD = re.compile(r"([A-Za-z]+)\s*$")


# "on Friday" has one reading only when the sentence's tense gives it: "I had an interview on
# Friday" (the Friday before), "I start on Monday" (the Monday after). Either marker alone decides;
# a sentence with both, or neither ("I'm excited about Friday"), is left as said.
_BARE_WEEKDAY = re.compile(rf"\b(on|since|by|until|till|this past) {_WD}\b", re.IGNORECASE)
_SENTENCES = re.compile(r"[^.!?]+[.!?]*")
_PAST = re.compile(
    r"\b(?:was|were|did|had|went|came|got|took|made|saw|met|ran|left|found|told|said|bought|sold|"
    r"broke|began|brought|gave|won|lost|flew|drove|wrote|read|heard|felt|kept|spent|sent|held|fell|"
    r"\w+ed)\b",
    re.IGNORECASE,
)
_FUTURE = re.compile(
    r"\b(?:will|won't|shall|gonna|going to|plan(?:s|ning)? to|start|starts|leave|leaves|begin|begins)\b"
    r"|'ll\b|\b(?:am|is|are|'m|'re) \w+ing\b|\b(?:I'm|I am|we're|we are|is|are|am)\b",
    re.IGNORECASE,
)


def _weekdays(sentence: str, when: date, style: str) -> str:
    past, future = bool(_PAST.search(sentence)), bool(_FUTURE.search(sentence))
    if past == future:
        return sentence

    def one(m: re.Match[str]) -> str:
        weekday = _WEEKDAYS.index(m.group(2).lower())
        resolved = day(_weekday_before(when, weekday) if past else _weekday_after(when, weekday))
        if style == "annotate":
            return f"{m.group(0)} ({resolved})"
        word = m.group(1).lower()
        return f"on {resolved}" if word in ("on", "this past") else f"{m.group(1)} {resolved}"

    return _BARE_WEEKDAY.sub(one, sentence)


def resolve(text: str, said: datetime | date, *, style: str = "replace") -> str:
    """``text`` with its relative time phrases resolved against ``said``.

    ``replace``: "User went there yesterday" -> "User went there on 7 May 2023".
    ``annotate``: "I went there yesterday" -> "I went there yesterday (7 May 2023)".
    """
    when = said.date() if isinstance(said, datetime) else said
    if _BARE_WEEKDAY.search(text):
        text = "".join(_weekdays(m.group(0), when, style) for m in _SENTENCES.finditer(text)) or text
    if not _ANY.search(text):
        return text
    out: list[str] = []
    last = 0
    for m in _ANY.finditer(text):
        phrase = m.group(0)
        for pattern, fn in _RULES:
            hit = pattern.fullmatch(phrase)
            if hit:
                preposition, resolved = fn(hit, when)
                break
        else:  # pragma: no cover - _ANY is the union of the rules
            continue
        out.append(text[last : m.start()])
        if style == "annotate":
            out.append(f"{phrase} ({resolved})")
        else:
            before = _PRECEDING_WORD.search(text[last : m.start()])
            bare = before is not None and before.group(1).lower() in _PREPOSITIONS
            out.append(resolved if bare else f"{preposition} {resolved}")
        last = m.end()
    out.append(text[last:])
    return "".join(out)
