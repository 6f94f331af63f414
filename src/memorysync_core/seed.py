"""The idempotency seed every MemorySync adapter shares: the ``speaker`` of add_turn and of a
transcript turn in openapi.yaml.

Identical seeds across adapters mean a turn sent twice, from anywhere, is extracted once, so
the hash must match the other clients bit for bit: FNV-1a 64 over UTF-16 code units.
"""

from __future__ import annotations

import sys
from array import array
from typing import Literal

MAX_TEXT_CHARS = 16_000
"""The longest text the contract takes (``Text`` in openapi.yaml); `prepare_text` truncates to it."""

_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3
_MASK = 0xFFFFFFFFFFFFFFFF
_UTF16_NATIVE = "utf-16-le" if sys.byteorder == "little" else "utf-16-be"  # array("H")'s order

SeedRole = Literal["human", "ai"]


def fnv1a64(s: str) -> str:
    """FNV-1a 64-bit over the UTF-16 code units of ``s``, as every MemorySync client computes it.

    Args:
        s: The text to hash.

    Returns:
        16 lowercase hex digits.
    """
    # One code unit per step: an ASCII string's bytes are its code units; anything else is read
    # as 16-bit units in native order (a third of the time of combining byte pairs in Python).
    units: bytes | array[int] = (
        s.encode("ascii") if s.isascii() else array("H", s.encode(_UTF16_NATIVE, "surrogatepass"))
    )
    h = _FNV_OFFSET
    for unit in units:
        h = ((h ^ unit) * _FNV_PRIME) & _MASK
    return f"{h:016x}"


def prepare_text(text: str) -> str:
    """The exact text a client sends and hashes.

    Args:
        text: What the person or agent said.

    Returns:
        ``text`` trimmed, then truncated to `MAX_TEXT_CHARS` characters.
    """
    return text.strip()[:MAX_TEXT_CHARS]


def turn_seed(role: SeedRole, scope: str, text: str) -> str:
    """The idempotency seed of one turn: ``"<role>@<scope>#h" + fnv1a64("<role>:" + text)``.

    Args:
        role: ``"human"`` or ``"ai"``.
        scope: Where the turn was said, e.g. ``ag2::support-chat``.
        text: The turn's text, already passed through `prepare_text`.

    Returns:
        The seed, sent as the turn's ``speaker`` (add_turn) or ``idempotency_key`` (history).

    Raises:
        ValueError: ``role`` is neither ``"human"`` nor ``"ai"``.
    """
    if role not in ("human", "ai"):
        raise ValueError(f"turn_seed role must be 'human' or 'ai', got {role!r}")
    return f"{role}@{scope}#h{fnv1a64(f'{role}:{text}')}"
