"""Recall's ``context``: the block an agent pastes into its prompt, one line per memory.

Every line starts with the day the memory was said, so a model asked "when did she go?" can
answer from the block. A kept turn (what the person said, verbatim) shows as a quote with its
relative time phrases dated in brackets, and is cut to a few lines: a long message's gist is
enough to answer from, and the block stays small for the model.

    - [8 May 2023] User went to a LGBTQ support group on 7 May 2023
    - [8 May 2023] User said: "I went to a LGBTQ support group yesterday (7 May 2023) and ..."
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from ..domain import KEPT_TURN, Fact
from ..extraction import day, resolve

__all__ = ["block", "said_at"]

# A kept turn longer than this is cut at a word boundary in the block.
TURN_CHARS = 360


def said_at(fact: Fact) -> datetime:
    """When the memory was said: the turn's ``occurred_at`` the pipeline recorded, else its creation."""
    raw = fact.metadata.get("occurred_at")
    if isinstance(raw, str):
        try:
            return datetime.fromisoformat(raw.replace("Z", "+00:00"))
        except ValueError:
            pass
    return fact.created_at


def _cut(text: str, limit: int = TURN_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def line(fact: Fact) -> str:
    said = said_at(fact)
    if fact.event_type == KEPT_TURN:
        return f'- [{day(said)}] User said: "{_cut(resolve(fact.text, said, style="annotate"))}"'
    return f"- [{day(said)}] {fact.text}"


def block(facts: Iterable[Fact]) -> str:
    return "\n".join(line(fact) for fact in facts)
