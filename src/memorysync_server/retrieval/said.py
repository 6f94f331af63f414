"""What a recall's prompt itself stored: recall leaves it out.

Adapters capture the person's message as a turn before they ask for a recall with it, so the
prompt is often stored already: as a kept turn (its facts name it) and as the facts extracted from
it. Echoing those back would push out what the person said before.
"""

from __future__ import annotations

from collections.abc import Callable

from ..domain import KEPT_TURN
from ..storage import Storage

__all__ = ["Said", "said"]

# The kept turn the prompt made (None: not kept) and the ids of the facts it gives (stored already).
Said = tuple[int | None, set[int]]


def said(store: Storage, echoes: Callable[[str], set[str]], tenant: str, user_id: str, prompt: str) -> Said:
    """What storing ``prompt`` as the person's turn made: the kept turn with its words, and the ids
    of the facts it gives (``echoes``: the texts extraction makes of it; a one-sentence turn is
    not kept), in one read. Looked up after the ranking read the rows: a turn stored meanwhile is
    in neither (its facts commit with it), while one looked up first could land in the ranking
    unnoticed."""
    text = prompt.strip()
    facts = echoes(prompt)
    found = store.facts.find_texts(tenant, user_id, [text, *facts])
    turn = found.get(text)
    echoed = (found.get(fact) for fact in facts)
    return (
        turn.id if turn is not None and turn.event_type == KEPT_TURN else None,
        {fact.id for fact in echoed if fact is not None and fact.event_type != KEPT_TURN},
    )
