"""Reading recall blocks in tests: each line starts with the day the memory was said."""

from __future__ import annotations

import re

DATED = re.compile(r"^- \[\d{1,2} [A-Z][a-z]+ \d{4}\] ", re.MULTILINE)


def undated(context: str) -> str:
    """``context`` without the day each line starts with, for tests of what was recalled."""
    return DATED.sub("- ", context)
