"""Read your own writes: what the person said a moment ago is in the next recall's block, even
when the model answers at once and the write has not landed yet. Real AG2 chats with instant
scripted replies against the real local server, sync and async."""

from __future__ import annotations

import asyncio
import uuid

from ag2_memorysync import DEFAULT_CONTEXT_TEMPLATE
from tests.ag2.scripted import assistant, person, sequence

HEADER = DEFAULT_CONTEXT_TEMPLATE.split("{context}")[0].strip()
CHATS = 50


def _block(call: list[dict]) -> str:
    return "\n".join(
        str(m["content"]) for m in call if m.get("role") == "system" and HEADER in str(m["content"])
    )


def _chat(make_memory, *, run_async: bool = False) -> str:
    memory = make_memory(user_id=f"person-{uuid.uuid4().hex[:10]}", session_id="s1")
    bot, model = assistant(sequence(["Noted!", "How about a vegetable stir-fry?"]))
    user = person(["What should I cook for dinner tonight?"])
    memory.add_to_agent(bot)
    first = "I'm allergic to peanuts and shellfish."
    if run_async:
        asyncio.run(user.a_initiate_chat(bot, message=first, silent=True))
    else:
        user.initiate_chat(bot, message=first, silent=True)
    assert len(model.calls) >= 2
    return _block(model.calls[1])  # the model's call for turn 3


def test_the_fact_of_turn_one_is_in_the_block_at_turn_three_in_every_chat(make_memory):
    blocks = [_chat(make_memory) for _ in range(CHATS)]
    found = sum("allergic to peanuts" in block for block in blocks)
    assert found == CHATS, f"turn-1 fact recalled at turn 3 in {found} of {CHATS} chats"


def test_the_same_holds_in_async_chats(make_memory):
    blocks = [_chat(make_memory, run_async=True) for _ in range(10)]
    assert all("allergic to peanuts" in block for block in blocks), blocks
