"""Relative time phrases resolved against when they were said.

"I went to a support group yesterday", said on 8 May 2023, is stored as "... on 7 May 2023": a
fact read a year later must still say when it happened, and a model asked "when did she go?"
can only answer from a date. Two styles: ``replace`` (facts: the phrase becomes the date) and
``annotate`` (what the person said, kept verbatim: the date follows the phrase in brackets).

Only phrases with one reading are resolved. A weekday, a month or a day of the month without a
year ("on Friday", "in September", "on May 1st", "for the 5th") is resolved when the tense of its
clause says whether it lies before or after the day it was said ("I moved in on Thursday", "I start
on Monday"); months and days of the month otherwise take the nearer reading. "Recently" or "the
other day" are left as they are rather than guessed. Seasons are the northern hemisphere's
(summer is June to August). "Last August" is the latest August before the month it was said in,
"next March" the first after it. A duration up to the day it was said ("I've been painting for
seven years") becomes its start in a fact ("since 2016"), and gains it in a quoted turn ("for seven
years (since 2016)"): read years later, it would otherwise be as wrong as a "yesterday". A holiday after "on", "for", "last" and the like ("we got
engaged on Christmas Day") is dated as a month is; one liked or recurring is not.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

from ..language.calendar_math import (
    COUNTS,
    HOLIDAYS,
    MONTHS,
    WEEKDAYS,
    add_months,
    holiday,
    last_weekend,
    weekday_after,
    weekday_before,
)

__all__ = ["day", "resolve"]

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
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def _month(d: date) -> str:
    return f"{MONTHS[d.month - 1]} {d.year}"


# Each rule: a pattern and a function of (match, the day it was said) giving (preposition, when).
Rule = tuple[re.Pattern[str], Callable[[re.Match[str], date], tuple[str, str]]]

_NUM = r"(\d{1,2}|a couple of|a couple|couple of|a few|few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# Weekdays, with the abbreviations chat uses ("last Tues", "on Fri").
_WD = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|weds|thu|thur|thurs|fri|sat|sun)"
# In the order they come within a year; a winter belongs to the year its December is in.
_SEASONS = ("spring", "summer", "autumn", "winter")


def _weekday(name: str) -> int:
    return [w[:3] for w in WEEKDAYS].index(name[:3].lower())


def _season(d: date) -> tuple[int, int]:
    """(the season's index in _SEASONS, the year it belongs to)."""
    if d.month == 12:
        return 3, d.year
    if d.month <= 2:
        return 3, d.year - 1
    return (d.month - 3) // 3, d.year


def _season_name(index: int, year: int) -> str:
    return f"winter {year}-{year + 1}" if index == 3 else f"{_SEASONS[index]} {year}"


def _seasonal(m: re.Match[str], said: date) -> tuple[str, str]:
    which, name = m.group(1).lower(), m.group(2).lower()
    wanted = _SEASONS.index("autumn" if name == "fall" else name)
    current, year = _season(said)
    # Seasons counted from the spring of year 0: this year's named season, then one back or on.
    here = year * 4 + current
    this = year * 4 + wanted
    if which == "last":
        this -= 4 if this >= here else 0
    elif which == "next":
        this += 4 if this <= here else 0
    elif wanted != current:
        # "this summer" said in February is the summer of that calendar year, though February
        # belongs to the winter that began the year before.
        this = said.year * 4 + wanted
    return "in", _season_name(this % 4, this // 4)


def _named_month(m: re.Match[str], said: date) -> tuple[str, str]:
    """ "last August": the latest August before the month it was said in; "next March": the first
    March after it; "this August": the August of that year."""
    which, month = m.group(1).lower(), [name.lower() for name in MONTHS].index(m.group(2).lower()) + 1
    year = said.year
    if which == "last":
        year -= 1 if month >= said.month else 0
    elif which == "next":
        year += 1 if month <= said.month else 0
    return "in", f"{MONTHS[month - 1]} {year}"


# "for seven years" after "has been", "have known", "'ve lived": a duration up to the day it was
# said, which goes stale as a "yesterday" does. A fact says its start instead ("since 2016"; with
# both, the fact's vector drifted: "Can I make her a cheese omelette?" ranked "User has been vegan
# for five years (since 2021)" 8th, "... since 2021" 4th); a quoted turn keeps its words too.
# ("a few years" or "a couple of years" are no count to date from; "for about three years" is
# dated "since about 2020".) A sentence that opens on the count and "now" answers "how long?"
# with no verb ("Seven years now, and I've finally found my muses"): it is dated in a quote.
_COUNT = r"(?P<n>\d{1,2}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (?P<unit>years?|months?)"
_HEDGE = r"(?:(?P<about>like|about|around|roughly|almost|nearly)\s+)?"
_NOT_AGO = r"(?!\s+(?:ago|back|old)\b)(?!\s*\(since)"
_SO_LONG = re.compile(rf"\bfor {_HEDGE}{_COUNT}(?:\s+now)?\b{_NOT_AGO}", re.I)
_NOW_LONG = re.compile(rf"(?:^|(?<=[.!?]\s))\W{{0,3}}{_HEDGE}{_COUNT} now\b{_NOT_AGO}", re.I)
_PERFECT = re.compile(
    r"\b(?:has|have|'ve|hasn't|haven't)\s+(?:\w+\s+)?(?:been|known|had|done|taught|run|grown|owned|\w+ed)\b"
    r"(?![^,;.]*\b(?:and|but|so)\s)[^,;.]*$",
    re.I,
)


def _start(m: re.Match[str], said: date) -> str:
    """When the duration ``m`` (a count and its unit) that lasts until ``said`` began."""
    raw = m["n"].lower()
    n = int(raw) if raw.isdigit() else COUNTS[raw]
    yearly = m["unit"].lower().startswith("year")
    since = str(said.year - n) if yearly else _month(add_months(said, -n))
    return f"since about {since}" if m.group("about") else f"since {since}"


def _so_long(text: str, said: date, style: str) -> str:
    def one(m: re.Match[str]) -> str:
        if not _PERFECT.search(text[: m.start()]):
            return m.group(0)
        return f"{m.group(0)} ({_start(m, said)})" if style == "annotate" else _start(m, said)

    text = _SO_LONG.sub(one, text)
    if style == "annotate":  # a fact keeps such a fragment's words: it seldom makes one
        text = _NOW_LONG.sub(lambda m: f"{m.group(0)} ({_start(m, said)})", text)
    return text


def _ago(m: re.Match[str], said: date) -> tuple[str, str]:
    raw = m.group(1).lower()
    n = int(raw) if raw.isdigit() else COUNTS[raw]
    unit = m.group(2).lower()
    if unit.startswith("day"):
        return "on", day(said - timedelta(days=n))
    if unit.startswith("week"):
        return "around", day(said - timedelta(weeks=n))
    if unit.startswith("month"):
        return "in", _month(add_months(said, -n))
    return "in", str(said.year - n)


def _weekends_ago(m: re.Match[str], said: date) -> tuple[str, str]:
    raw = m.group(1).lower()
    n = int(raw) if raw.isdigit() else COUNTS[raw]
    return "on", f"the weekend of {day(last_weekend(said) - timedelta(weeks=n - 1))}"


def _years_ago_season(m: re.Match[str], said: date) -> tuple[str, str]:
    # "two years ago this spring": that season, that many years back.
    raw = m.group(1).lower()
    n = int(raw) if raw.isdigit() else COUNTS[raw]
    name = m.group(3).lower()
    return "in", _season_name(_SEASONS.index("autumn" if name == "fall" else name), said.year - n)


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
            lambda m, d: ("on", day(weekday_before(d, _weekday(m.group(1))))),
        ),
        r(
            rf"next {_WD}",
            lambda m, d: ("on", day(weekday_after(d, _weekday(m.group(1))))),
        ),
        r(
            r"(?:last|this past) weekend",
            lambda m, d: ("on", f"the weekend of {day(last_weekend(d))}"),
        ),
        r(r"this weekend", lambda m, d: ("on the weekend of", day(weekday_after(d - timedelta(days=1), 5)))),
        r(
            r"next weekend",
            lambda m, d: ("on the weekend of", day(weekday_after(d, 5) + timedelta(weeks=1))),
        ),
        r(r"last week", lambda m, d: ("in", f"the week before {day(d)}")),
        r(r"this week", lambda m, d: ("in", f"the week of {day(d)}")),
        r(r"next week", lambda m, d: ("in", f"the week after {day(d)}")),
        r(r"last month", lambda m, d: ("in", _month(add_months(d, -1)))),
        r(r"this month", lambda m, d: ("in", _month(d))),
        r(r"next month", lambda m, d: ("in", _month(add_months(d, 1)))),
        r(r"last year", lambda m, d: ("in", str(d.year - 1))),
        r(r"this year", lambda m, d: ("in", str(d.year))),
        r(r"next year", lambda m, d: ("in", str(d.year + 1))),
        r(rf"{_NUM} (years?) ago,? this (spring|summer|fall|autumn|winter)", _years_ago_season),
        # "a couple weeks back" is "ago" too; "two days back home" is not.
        r(rf"{_NUM} (days?|weeks?|months?|years?) (?:ago|back(?!\s+(?:home|to|from|in|at|then)\b))", _ago),
        r(r"a fortnight ago", lambda m, d: ("around", day(d - timedelta(weeks=2)))),
        r(r"the week before last", lambda m, d: ("around", day(d - timedelta(weeks=2)))),
        r(rf"{_NUM} weekends? ago", _weekends_ago),
        r(r"(last|this|next) (spring|summer|fall|autumn|winter)", _seasonal),
        r(rf"(last|this|next) ({'|'.join(MONTHS)})", _named_month),
    ]


_RULES = _rules()
_ANY = re.compile("|".join(f"(?:{rule.pattern})" for rule, _ in _RULES), re.IGNORECASE)
_PRECEDING_WORD = re.compile(r"([A-Za-z]+)\s*$")


# A weekday, month or day of the month without a year has one reading when the tense of its
# clause gives it: "I had an interview on Friday" (the Friday before), "I start on Monday" (the
# Monday after). A clause with both markers, or neither ("I'm excited about Friday"), leaves a
# weekday as said; months and days of the month then take the nearer reading, and "this Friday"
# and "the 5th" the coming one.
_MONTH = "(?-i:" + "|".join(MONTHS) + ")"
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)?"
_NO_YEAR = r"(?!\s*,?\s*\d)"
_HOLIDAY = "|".join(
    name.replace("'", "['\u2019]?").replace("st ", r"st\.? ").replace(" ", r"\s+")
    for name in sorted(HOLIDAYS, key=len, reverse=True)
)
_BY_TENSE = re.compile(
    # "on Christmas Day", "for Easter", "last Thanksgiving"; "loves Halloween" names no day.
    rf"\b(?P<h_pre>on|at|for|over|during|around|since|until|till|by|before|after|this|last|next|from)\s+"
    rf"(?:the\s+)?(?P<holiday>{_HOLIDAY})\b(?!\s*,?\s*\d)(?!\s*\()(?!\s+(?:party|parties|card|cards|tree|lights|dinner|market|movie|songs?)\b)"
    # "on Tuesday nights" is a habit, not a day.
    rf"|\b(?P<wd_pre>on|since|by|until|till|this(?!\s+past)) {_WD}\b(?!\s+(?:nights|mornings|evenings|afternoons)\b)"
    rf"|\b(?P<m_pre>in|for|since|until|till|by|from|through|during|around|early|late|mid-?)\s*(?P<month>{_MONTH})\b"
    rf"{_NO_YEAR}(?!\s+the\b)"
    rf"|\b(?P<md_month>{_MONTH})\s+{_ORDINAL}\b{_NO_YEAR}"
    rf"|\b(?P<dm_day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dm_month>{_MONTH})\b{_NO_YEAR}"
    rf"|\b(?P<th_pre>on|for|by|until|till|from|since) the {_ORDINAL}\b(?!\s+(?:of\b|[a-z]))",
    re.IGNORECASE,
)
_SENTENCES = re.compile(r"[^.!?]+[.!?]*")
_CLAUSE_BREAK = re.compile(r",|;|\s(?:and|but|because|so|while|although|though)\s", re.IGNORECASE)
_PAST = re.compile(
    r"\b(?:was|were|did|had|went|came|got|took|made|saw|met|ran|left|found|told|said|bought|sold|"
    r"broke|began|brought|gave|won|lost|flew|drove|wrote|read|heard|felt|kept|spent|sent|held|fell|"
    r"\w+ed)\b",
    re.IGNORECASE,
)
_FUTURE = re.compile(
    # "starts", "ends", "opens": a timetable's present, which names what lies ahead ("my lease ends
    # December 31st, and we found a house" is this December, whatever the other clause's tense).
    r"\b(?:will|won't|shall|gonna|going to|plan(?:s|ning)? to|start|starts|leave|leaves|begin|begins|"
    r"ends|opens|closes|expires)\b"
    r"|'ll\b|\b(?:am|is|are|'m|'re) \w+ing\b|\b(?:I'm|I am|we're|we are|is|are|am)\b",
    re.IGNORECASE,
)


# Signing up, booking, registering or deciding to do names a date the thing arranged happens on,
# which lies ahead as often as the arranging lies behind: "I signed up for the Half on July 23"
# said in May is this July, though "signed" is past. Such a sentence dates a day or a month by the
# nearer reading.
_ARRANGED = re.compile(
    r"\b(?:sign(?:ed|s|ing)? up|register(?:ed|s|ing)?|book(?:ed|s|ing)?|reserv(?:ed|es|ing)|"
    r"schedul(?:ed|es|ing)|enrol(?:led|ls|ling)?|enroll(?:ed|s|ing)?|(?:bought|got) (?:\w+ )?tickets|"
    # "I entered the Harbor City Open in October", "he got his band a spot in the talent show in
    # November": being let into an event dates the event
    r"entered|(?:got|landed|earned|won) (?:\w+ ){0,3}(?:a )?(?:spot|place|slot)|qualified|"
    r"(?:was|were|got|been) (?:accepted|invited|selected|picked)|"
    # "my parents decided to retire in January": what was decided lies ahead as often as not
    r"(?:decided|planned|agreed|promised|hoped|wanted|chose|expected|offered|asked \w+) to \w+)\b",
    re.IGNORECASE,
)


def _tense(text: str) -> int:
    """-1 past, 1 future, 0 when ``text`` gives neither or both."""
    return int(bool(_FUTURE.search(text))) - int(bool(_PAST.search(text)))


# A clause that opens on a subject and its verb has a tense of its own, if only the present:
# "We have the awards night in June, and I think Danny has earned a prize" is this June.
_OWN_SUBJECT = re.compile(
    r"^\W*(?:i|we|you|they|he|she|others|user)\s+(?:have|has|do|does|need|want|get|go)\b",
    re.IGNORECASE,
)


def _clause_tense(sentence: str, at: int) -> int:
    """The tense of the clause around position ``at``, else of the whole sentence."""
    starts = [0, *(m.end() for m in _CLAUSE_BREAK.finditer(sentence) if m.end() <= at)]
    stop = next((m.start() for m in _CLAUSE_BREAK.finditer(sentence) if m.start() > at), len(sentence))
    clause = sentence[starts[-1] : stop]
    own = _tense(clause)
    return own if own or _OWN_SUBJECT.match(clause) else _tense(sentence)


def _pick(candidates: list[date], said: date, tense: int, *, coming: bool = False) -> date:
    """The candidate the tense points to: the latest on or before ``said`` (past), the earliest on
    or after it (future), else the nearest. ``coming`` (a day of the month named without its month:
    nobody calls today "the 5th"): the latest before ``said`` (past), else the earliest after it."""
    if coming:
        return max(c for c in candidates if c < said) if tense < 0 else min(c for c in candidates if c > said)
    if tense < 0:
        return max(c for c in candidates if c <= said)
    if tense > 0:
        return min(c for c in candidates if c >= said)
    return min(candidates, key=lambda c: (abs((c - said).days), c < said))


def _dates(month: int | None, day_of_month: int | None, said: date) -> list[date]:
    """The dates a month (its first day) or a day (of ``month``, else of any month) could be, a year either side."""
    out = []
    for shift in range(-13, 14):
        first = add_months(said.replace(day=1), shift)
        if month is not None and first.month != month:
            continue
        try:
            out.append(first.replace(day=day_of_month or 1))
        except ValueError:  # the 31st of a short month
            continue
    return out


# What says a holiday lies ahead, beyond a bare "is" (which compares as often as it plans).
_AHEAD_OF_NOW = re.compile(
    r"\b(?:will|won't|shall|gonna|going\s+to|plan(?:s|ning)?\s+to|next|coming|upcoming)\b|'ll\b"
    r"|\b(?:am|is|are|'m|'re)\s+\w+ing\b",
    re.IGNORECASE,
)
# The way a preposition leans, whatever the verb's tense: "until March", "since March".
_LEAN = {"for": 1, "until": 1, "till": 1, "by": 1, "since": -1}
_RECURRING = re.compile(r"\b(?:birthday|anniversary|every|each|always|usually|annual|yearly)\b", re.I)


def _by_tense(sentence: str, when: date, style: str) -> str:
    def one(m: re.Match[str]) -> str:
        tense = _clause_tense(sentence, m.start())
        if m["holiday"]:
            # "We got engaged on Christmas Day": the one the tense points to, as months are read.
            name = re.sub(r"\s+", " ", m["holiday"].lower().replace("\u2019", "'").replace("st.", "st"))
            if name not in HOLIDAYS:
                name = next(h for h in HOLIDAYS if h.replace("'", "") == name.replace("'", ""))
            if _RECURRING.search(sentence):
                return m.group(0)  # "Her birthday is on Valentine's Day": every year's
            if (tense < 0 and _ARRANGED.search(sentence)) or (
                tense > 0 and not _AHEAD_OF_NOW.search(sentence)
            ):
                tense = 0  # "He's thinner than at Christmas" said in April: the Christmas before
            options = [holiday(name, when.year + shift) for shift in (-1, 0, 1)]
            picked = _pick(options, when, (_LEAN | {"next": 1, "last": -1}).get(m["h_pre"].lower(), tense))
            if m["h_pre"].lower() in ("last", "next") and picked == when:
                picked = holiday(name, when.year + (1 if m["h_pre"].lower() == "next" else -1))
            return f"{m.group(0)} ({day(picked)})"
        if m["wd_pre"]:
            weekday = _weekday(m.group(m.re.groupindex["wd_pre"] + 1))
            if m["wd_pre"].lower() == "this":
                resolved = day(
                    weekday_before(when + timedelta(days=1), weekday)
                    if tense < 0
                    else weekday_after(when - timedelta(days=1), weekday)
                )
            elif tense == 0:
                return m.group(0)
            else:
                resolved = day(weekday_before(when, weekday) if tense < 0 else weekday_after(when, weekday))
            if style == "annotate":
                return f"{m.group(0)} ({resolved})"
            word = m["wd_pre"].lower()
            return f"on {resolved}" if word in ("on", "this") else f"{m['wd_pre']} {resolved}"
        if m["month"]:
            month = MONTHS.index(m["month"]) + 1
            first = when.replace(day=1)
            # "booked a trip for September", "until March": the month ahead, whatever the verb's tense.
            if tense < 0 and _ARRANGED.search(sentence):
                tense = 0
            lean = _LEAN.get(m["m_pre"].lower(), tense)
            resolved = _month(_pick(_dates(month, None, when), first, lean))
            year = resolved.rsplit(" ", 1)[1]
            return f"{m.group(0)} ({resolved})" if style == "annotate" else f"{m.group(0)} {year}"
        if m["th_pre"]:
            number = int(m.group(m.re.groupindex["th_pre"] + 1))
            resolved = day(_pick(_dates(None, number, when), when, tense, coming=True))
            return f"{m.group(0)} ({resolved})" if style == "annotate" else f"{m['th_pre']} {resolved}"
        if m["md_month"]:
            name, number = m["md_month"], int(m.group(m.re.groupindex["md_month"] + 1))
        else:
            name, number = m["dm_month"], int(m["dm_day"])
        if tense < 0 and _ARRANGED.search(sentence):
            tense = 0
        resolved = day(_pick(_dates(MONTHS.index(name) + 1, number, when), when, tense))
        return f"{m.group(0)} ({resolved})" if style == "annotate" else resolved

    return _BY_TENSE.sub(one, sentence)


_BEHIND = re.compile(r"\b(?:last|ago|yesterday|earlier|back|past)\b", re.IGNORECASE)
_AHEAD = re.compile(r"\b(?:next|tomorrow|coming|upcoming|later)\b", re.IGNORECASE)


def fits_tense(phrase: str, text: str) -> bool:
    """Whether a time ``phrase`` said elsewhere can date ``text``: not "last month" for what the
    person will do, nor "next week" for what they did."""
    tense = _tense(text)
    return not ((tense > 0 and _BEHIND.search(phrase)) or (tense < 0 and _AHEAD.search(phrase)))


def lasts_until_said(text: str) -> bool:
    """Whether ``text`` tells how long something has lasted up to when it was said ("I've been in
    the ER for eleven years"): a time said in the sentence before ("The interview is next week")
    does not date it."""
    return any(_PERFECT.search(text[: m.start()]) for m in _SO_LONG.finditer(text))


def time_phrase(text: str) -> str | None:
    """The first relative time phrase of ``text`` ("last week", "two days ago"), as written."""
    m = _ANY.search(text)
    return m.group(0) if m else None


def resolve(text: str, said: datetime | date, *, style: str = "replace") -> str:
    """``text`` with its relative time phrases resolved against ``said``.

    ``replace``: "User went there yesterday" -> "User went there on 7 May 2023".
    ``annotate``: "I went there yesterday" -> "I went there yesterday (7 May 2023)".
    """
    when = said.date() if isinstance(said, datetime) else said
    if _SO_LONG.search(text) or _NOW_LONG.search(text):
        text = _so_long(text, when, style)
    if _BY_TENSE.search(text):
        text = "".join(_by_tense(m.group(0), when, style) for m in _SENTENCES.finditer(text)) or text
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
