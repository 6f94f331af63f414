"""Calendar arithmetic shared by the two readers of time in chat: ``extraction.timephrases``
(what a turn says happened: "yesterday" becomes 7 May 2023) and ``language.when`` (what a question
asks about). One copy, so a fact dated at storage and a question read at recall agree on which
Saturday "last weekend" was."""

from __future__ import annotations

from datetime import date, timedelta

__all__ = [
    "COUNTS",
    "HOLIDAYS",
    "MONTHS",
    "WEEKDAYS",
    "add_months",
    "holiday",
    "last_weekend",
    "weekday_after",
    "weekday_before",
]

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")  # fmt: skip
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# The counts chat writes in words ("two weeks ago", "a couple of months ago").
COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a couple": 2,
          "couple of": 2, "a few": 3, "few": 3}  # fmt: skip


def add_months(d: date, months: int) -> date:
    """The first day of the month ``months`` after ``d``'s (before it, when negative)."""
    index = d.year * 12 + d.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def weekday_before(d: date, weekday: int) -> date:
    """The last ``weekday`` (0 = Monday) strictly before ``d``: "last Friday" said on a Friday is a week back."""
    return d - timedelta(days=(d.weekday() - weekday) % 7 or 7)


def weekday_after(d: date, weekday: int) -> date:
    """The first ``weekday`` strictly after ``d``."""
    return d + timedelta(days=(weekday - d.weekday()) % 7 or 7)


def last_weekend(d: date) -> date:
    """The Saturday of "last weekend" said on ``d``: said on a Sunday, the weekend before, not the day before."""
    saturday = weekday_before(d, 5)
    return saturday - timedelta(weeks=1) if d.weekday() == 6 else saturday


# Days chat names instead of a date ("we got engaged on Christmas Day"), as (month, day); the
# movable ones are computed in ``holiday``.
_FIXED = {
    "new year's day": (1, 1),
    "valentine's day": (2, 14),
    "st patrick's day": (3, 17),
    "fourth of july": (7, 4),
    "independence day": (7, 4),
    "halloween": (10, 31),
    "christmas eve": (12, 24),
    "christmas day": (12, 25),
    "christmas": (12, 25),
    "boxing day": (12, 26),
    "new year's eve": (12, 31),
}
HOLIDAYS = (*_FIXED, "thanksgiving", "easter")


def _easter(year: int) -> date:
    """Easter Sunday (Gregorian; the anonymous algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    j = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 19 * j + 433) // 5453
    month = (h + j - 7 * m + 90) // 25
    return date(year, month, (h + j - 7 * m + 33 * month + 19) % 32)


def holiday(name: str, year: int) -> date:
    """The day ``name`` (one of HOLIDAYS, lower case) falls on in ``year``; Thanksgiving is the
    United States' (the fourth Thursday of November)."""
    if name == "thanksgiving":
        return weekday_after(date(year, 10, 31), 3) + timedelta(weeks=3)
    if name == "easter":
        return _easter(year)
    month, day_of_month = _FIXED[name]
    return date(year, month, day_of_month)
