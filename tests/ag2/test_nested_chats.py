"""Nested chats: an agent that runs a chat of its own inside its reply (``register_nested_chats``)
answers the person with what that chat concluded. The person's memory holds the conversation the
person was in, whichever of its agents carries the capability: the inner chat's words (the agent
asking a colleague, the colleague's answers) are the agent's deliberation, not turns of the
person's chat, and are stored nowhere; the reply they end in is stored once, as the AI's."""

from __future__ import annotations

import asyncio

import pytest

from .test_group_last_words import _scripted

ASK = "I'm allergic to shellfish. Is the risotto safe?"
INNER_ASK = "Is the risotto shellfish-free?"
KITCHEN = ["Let me check the stock.", "No shellfish in the risotto.", "The stock is vegetable."]


def _agents(inner_turns: int):
    from autogen import ConversableAgent

    customer = _scripted("customer", ["Thanks, I'll have it then."], human=True)
    concierge = ConversableAgent("concierge", llm_config=False, human_input_mode="NEVER")
    kitchen = _scripted("kitchen", KITCHEN)

    def to_kitchen(recipient, messages=None, sender=None, config=None):
        return True, "Please double-check the stock."

    concierge.register_reply([kitchen], to_kitchen, position=0)
    concierge.register_nested_chats(
        [
            {
                "recipient": kitchen,
                "message": INNER_ASK,
                "max_turns": inner_turns,
                "summary_method": "last_msg",
            }
        ],
        trigger=customer,
    )
    return customer, concierge, kitchen


def _outer(customer, concierge) -> list[tuple[str, str]]:
    """The person's chat as the person's agent saw it, as (role, words)."""
    return [
        ("user" if m["name"] == "customer" else "assistant", m["content"])
        for m in customer.chat_messages[concierge]
    ]


@pytest.mark.parametrize("inner_turns", [1, 2])
@pytest.mark.parametrize("on", ["person", "nesting agent", "both"])
def test_the_person_chat_is_stored_once_and_the_inner_chat_nowhere(make_memory, stored, uid, on, inner_turns):
    memory = make_memory(session_id="dinner")
    customer, concierge, kitchen = _agents(inner_turns)
    for agent in {"person": [customer], "nesting agent": [concierge], "both": [customer, concierge]}[on]:
        memory.add_to_agent(agent)
    customer.initiate_chat(concierge, message=ASK, max_turns=2, silent=True)
    assert memory.flush(5)
    outer = _outer(customer, concierge)
    assert len(outer) == 4 and outer[0] == ("user", ASK)
    assert outer[1] == ("assistant", KITCHEN[inner_turns - 1])  # the nested chat's last word
    assert stored.transcript(uid, "dinner") == outer
    assert INNER_ASK in str(concierge.chat_messages[kitchen])  # the inner chat did happen


def test_an_async_nested_chat_is_left_out_too(make_memory, stored, uid):
    memory = make_memory(session_id="dinner-async")
    customer, concierge, _ = _agents(2)
    memory.add_to_agent(concierge)

    async def chat() -> None:
        await customer.a_initiate_chat(concierge, message=ASK, max_turns=2, silent=True)
        assert await memory.aflush(5)

    asyncio.run(chat())
    assert stored.transcript(uid, "dinner-async") == _outer(customer, concierge)


def test_the_same_colleague_in_a_chat_of_its_own_is_stored(make_memory, stored, uid):
    # The colleague was a nested chat's partner; later the agent talks to it at the top level.
    memory = make_memory(session_id="later")
    customer, concierge, kitchen = _agents(1)
    memory.add_to_agent(concierge)
    customer.initiate_chat(concierge, message=ASK, max_turns=1, silent=True)
    concierge.initiate_chat(kitchen, message="Order more vegetable stock.", max_turns=1, silent=True)
    assert memory.flush(5)
    words = [text for _, text in stored.transcript(uid, "later")]
    assert words[:2] == [ASK, KITCHEN[0]]
    assert words[2:] == ["Order more vegetable stock.", KITCHEN[1]]
