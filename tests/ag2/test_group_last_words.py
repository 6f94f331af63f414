"""A group chat's last words: with the capability on one member only, every message of the chat
is stored once, with its speaker's role, by the time ``flush()`` or ``close()`` returns, including
those said after that member's last reply. Members with ``llm_config=False`` answer through
``register_reply`` functions, as the issue's reporter wired them."""

from __future__ import annotations

import itertools

import pytest

CUSTOMER = [
    "I need a dinner venue for Friday.",
    "Also, I'm allergic to shellfish.",
    "The deadline is Thursday noon.",
]
PLANNER = [
    "Let me shortlist three places.",
    "Noted, no seafood places then.",
    "I'll send the list by Wednesday.",
]
CONCIERGE = ["I can book a table once you choose.", "I'll tell the kitchen.", "Booking on hold."]


def _scripted(name: str, lines: list[str], *, human: bool = False):
    from autogen import ConversableAgent, UserProxyAgent

    if human:
        agent = UserProxyAgent(name, human_input_mode="NEVER", code_execution_config=False, llm_config=False)
    else:
        agent = ConversableAgent(name, llm_config=False, human_input_mode="NEVER")
    said = iter(lines)

    def reply(recipient, messages=None, sender=None, config=None):
        return True, next(said, "Thanks, that's all.")

    agent.register_reply([ConversableAgent, None], reply, position=0)
    return agent


def _members():
    customer = _scripted("customer", CUSTOMER[1:], human=True)
    planner = _scripted("planner", PLANNER)
    concierge = _scripted("concierge", CONCIERGE)
    return customer, planner, concierge


def _expected(messages: list[dict]) -> list[tuple[str, str]]:
    return [("user" if m["name"] == "customer" else "assistant", m["content"]) for m in messages]


@pytest.mark.parametrize("max_round", [5, 7])
@pytest.mark.parametrize("selection", ["round_robin", "custom"])
@pytest.mark.parametrize("ending", ["flush", "close"])
def test_every_message_is_stored_with_the_capability_on_one_member(
    make_memory, stored, uid, max_round, selection, ending
):
    from autogen import GroupChat, GroupChatManager

    memory = make_memory(session_id="venue")
    customer, planner, concierge = _members()
    order = itertools.cycle([planner, concierge, customer])

    def next_speaker(last_speaker, groupchat):
        return next(order)

    chat = GroupChat(
        agents=[customer, planner, concierge],
        messages=[],
        max_round=max_round,
        speaker_selection_method="round_robin" if selection == "round_robin" else next_speaker,
    )
    manager = GroupChatManager(chat, llm_config=False)
    memory.add_to_agent(concierge)
    customer.initiate_chat(manager, message=CUSTOMER[0], silent=True)
    said = [m for m in chat.messages if m.get("content")]
    assert len(said) == max_round
    # The concierge's last reply came before the end: later words reach it only as received.
    assert said[-1]["name"] != "concierge"
    assert (memory.flush(5) if ending == "flush" else memory.close(5)) is True
    assert stored.transcript(uid, "venue") == _expected(said)


def test_a_second_flush_stores_nothing_twice(make_memory, stored, uid):
    from autogen import GroupChat, GroupChatManager

    memory = make_memory(session_id="twice")
    customer, planner, concierge = _members()
    chat = GroupChat(
        agents=[customer, planner, concierge],
        messages=[],
        max_round=5,
        speaker_selection_method="round_robin",
    )
    memory.add_to_agent(concierge)
    customer.initiate_chat(GroupChatManager(chat, llm_config=False), message=CUSTOMER[0], silent=True)
    assert memory.flush(5) and memory.flush(5)
    assert stored.transcript(uid, "twice") == _expected(chat.messages)
    assert memory.stats()["captured"] == len(chat.messages)


def test_a_sequence_of_chats_keeps_the_replies_the_person_never_answered(make_memory, stored, uid):
    # initiate_chats with max_turns=1: each reply to the person ends its chat, so no reply hook
    # of the person's agent (where the capability is) runs after it: its next send, or flush(),
    # captures it, in order.
    memory = make_memory(session_id="errands")
    customer = _scripted("customer", [], human=True)
    planner = _scripted("planner", ["Friday at 7 works."])
    concierge = _scripted("concierge", ["Table for two, booked."])
    memory.add_to_agent(customer)
    customer.initiate_chats(
        [
            {"recipient": planner, "message": "When shall we eat on Friday?", "max_turns": 1, "silent": True},
            {"recipient": concierge, "message": "Book us a table, please.", "max_turns": 1, "silent": True},
        ]
    )
    assert memory.flush(5)
    assert stored.transcript(uid, "errands") == [
        ("user", "When shall we eat on Friday?"),
        ("assistant", "Friday at 7 works."),
        ("user", "Book us a table, please.\nContext: \nFriday at 7 works."),  # autogen's carryover
        ("assistant", "Table for two, booked."),
    ]


GROUP_SCRIPT = f"""
import sys
from autogen import ConversableAgent, GroupChat, GroupChatManager, UserProxyAgent
from ag2_memorysync import MemorySyncCapability

base_url, api_key, user = sys.argv[1:4]


def scripted(name, lines, human=False):
    if human:
        agent = UserProxyAgent(name, human_input_mode="NEVER", code_execution_config=False, llm_config=False)
    else:
        agent = ConversableAgent(name, llm_config=False, human_input_mode="NEVER")
    said = iter(lines)
    agent.register_reply([ConversableAgent, None], lambda *a, **k: (True, next(said, "Thanks, that's all.")), position=0)
    return agent


customer = scripted("customer", {CUSTOMER[1:]}, human=True)
planner = scripted("planner", {PLANNER})
concierge = scripted("concierge", {CONCIERGE})
memory = MemorySyncCapability(user_id=user, session_id="exit", api_key=api_key, base_url=base_url)
memory.add_to_agent(concierge)
chat = GroupChat(agents=[customer, planner, concierge], messages=[], max_round=5, speaker_selection_method="round_robin")
customer.initiate_chat(GroupChatManager(chat, llm_config=False), message={CUSTOMER[0]!r}, silent=True)
# No flush(), no close(): the program just ends.
"""


def test_a_program_that_ends_without_flush_still_stores_the_last_words(server, stored, uid):
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run(
        [
            sys.executable,
            "-W",
            "ignore:flaml.automl is not available:UserWarning",
            "-c",
            GROUP_SCRIPT,
            server.base_url,
            server.api_key,
            uid,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    transcript = stored.transcript(uid, "exit")
    assert len(transcript) == 5
    assert transcript[:3] == [("user", CUSTOMER[0]), ("assistant", PLANNER[0]), ("assistant", CONCIERGE[0])]
    assert transcript[3:] == [
        ("user", CUSTOMER[1]),
        ("assistant", PLANNER[1]),
    ]  # after the concierge's last reply
