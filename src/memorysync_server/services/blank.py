"""What counts as blank text: nothing outside JSON Schema's (ECMA-262) whitespace, which the
spec's ``\\S`` patterns use too (Python's own \\s also counts \\x1c-\\x1f, which clients don't)."""

from __future__ import annotations

import re

ECMA_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_BLANK = re.compile(f"[{ECMA_WHITESPACE}]*")


def is_blank(text: str) -> bool:
    """True when ``text`` has no character outside ECMA-262 whitespace."""
    return _BLANK.fullmatch(text) is not None
