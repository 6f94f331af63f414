"""Group chats as people wire them: three members, round robin or a model picking the speaker, the
capability on the person, on one other member, or on all of them."""

from __future__ import annotations

import itertools
from collections.abc import Hashable

import pytest

from ag2_memorysync.dedup import DedupRegistry
from tests.ag2.scripted import assistant, person, sequence
from tests.ag2.test_chat import memory_messages
from tests.support.openai_stub import OpenAIStub

OPENING = "I have a dog named Rex and I want a weekend outing with him."
CRITIC_1 = "The river trail is muddy in March, I am a cautious critic."
PLANNER_1 = "Plan: a picnic on the hill above the town."
LINE_2 = "I live in Bergen and I work as a night nurse."
CRITIC_2 = "Bergen gets rain most weekends."
PLANNER_2 = "Then pack a tarp and go on Sunday morning."
TRANSCRIPT = [
    ("user", OPENING),
    ("assistant", CRITIC_1),
    ("assistant", PLANNER_1),
    ("user", LINE_2),
    ("assistant", CRITIC_2),
    ("assistant", PLANNER_2),
]


def group(selection: str, manager_llm: dict | None = None):
    from autogen import GroupChat, GroupChatManager

    user = person([LINE_2])  # then no reply: the chat ends after the person has read everything
    critic, _ = assistant(sequence([CRITIC_1, CRITIC_2]), name="critic")
    planner, planner_model = assistant(sequence([PLANNER_1, PLANNER_2]), name="planner")
    chat = GroupChat(
        agents=[user, critic, planner], messages=[], max_round=10, speaker_selection_method=selection
    )
    manager = GroupChatManager(chat, llm_config=manager_llm or False)
    return user, critic, planner, planner_model, manager


def speaker_picker():
    """The manager's model: names the next speaker, in round-robin order."""
    names = itertools.cycle(["critic", "planner", "user"])
    return lambda messages: next(names)


@pytest.mark.parametrize("selection", ["round_robin", "auto"])
@pytest.mark.parametrize("on", ["person", "planner", "all"])
def test_every_utterance_is_captured_once_with_its_speakers_role(make_memory, stored, uid, selection, on):
    memory = make_memory(session_id="group")
    with OpenAIStub(speaker_picker()) as selector:
        user, critic, planner, _, manager = group(
            selection, selector.llm_config() if selection == "auto" else None
        )
        for agent in {"person": [user], "planner": [planner], "all": [user, critic, planner]}[on]:
            memory.add_to_agent(agent)
        user.initiate_chat(manager, message=OPENING, silent=True)
    assert memory.flush(5)
    assert stored.transcript(uid, "group") == TRANSCRIPT
    facts = " | ".join(stored.facts(uid))
    assert "Rex" in facts and "Bergen" in facts, facts
    assert "critic" not in facts and "picnic" not in facts, "other agents' words never become facts"
    if selection == "auto":
        assert selector.rejections == [] and len(selector.requests) >= 3, "the model picked the speakers"


def test_a_member_recalls_on_what_the_person_asked_when_another_agent_spoke_last(make_memory, stored, uid):
    from autogen import GroupChat, GroupChatManager

    memory = make_memory(session_id="group-recall")
    memory.save("I am allergic to peanuts.")
    user = person([])
    critic, _ = assistant(sequence(["The trail is steep, so keep the bags light."]), name="critic")
    planner, planner_model = assistant(sequence(["Pack apples and rice cakes."]), name="planner")
    chat = GroupChat(
        agents=[user, critic, planner], messages=[], max_round=3, speaker_selection_method="round_robin"
    )
    memory.add_to_agent(planner)
    user.initiate_chat(
        GroupChatManager(chat, llm_config=False),
        message="Can we pack peanuts as a snack for the hike?",
        silent=True,
    )
    [call] = planner_model.calls
    assert call[-1]["content"] == "The trail is steep, so keep the bags light.", "the critic spoke last"
    [block] = memory_messages(call)
    assert "allergic to peanuts" in block


class RecordingRegistry(DedupRegistry):
    """The dedup registry, recording every key it is asked about."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[Hashable] = []

    def claim(self, key: Hashable) -> bool:
        self.asked.append(key)
        return super().claim(key)


def test_a_long_group_history_is_taken_in_a_tail_at_a_time(make_memory, stored, uid):
    """Each reply looks only at what arrived since the agent's last reply, never the whole history."""
    from autogen import GroupChat, GroupChatManager

    registry = RecordingRegistry()
    memory = make_memory(session_id="long-group", dedup=registry)
    user = person([f"Fact {n}: I keep {n} bicycles in my garage." for n in range(2, 12)], max_replies=20)
    critic, _ = assistant(sequence([f"Checked {n}." for n in range(1, 12)]), name="critic", max_replies=20)
    planner, _ = assistant(sequence([f"Noted {n}." for n in range(1, 12)]), name="planner", max_replies=20)
    chat = GroupChat(
        agents=[user, critic, planner], messages=[], max_round=40, speaker_selection_method="round_robin"
    )
    memory.add_to_agent(planner)
    user.initiate_chat(
        GroupChatManager(chat, llm_config=False),
        message="Fact 1: I keep 1 bicycles in my garage.",
        silent=True,
    )
    assert memory.flush(5)
    transcript = stored.transcript(uid, "long-group")
    assert len(transcript) == 33, "11 rounds of person, critic, planner"
    assert len(registry.asked) == len(set(registry.asked)) == 33, "each message looked at once"
    assert memory.stats()["deduplicated"] == 0
    assert [text for role, text in transcript if role == "user"][
        -1
    ] == "Fact 11: I keep 11 bicycles in my garage."
