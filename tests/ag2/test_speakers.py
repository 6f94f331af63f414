"""Roles in the less common arrangements: a person typing through human_input_mode="ALWAYS",
and a group chat where the manager relays every message."""

from __future__ import annotations

from typing import Any

from tests.ag2.scripted import assistant, sequence


class TypedInput:
    """An IOStream whose input() returns what the person types, in order; output is discarded."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = iter(lines)
        self.prompts: list[str] = []

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        pass

    def send(self, message: Any) -> None:
        pass

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        self.prompts.append(prompt)
        return next(self._lines, "exit")


def test_a_person_typing_on_a_plain_conversable_agent_is_the_human(make_memory, stored, uid):
    from autogen import ConversableAgent
    from autogen.io.base import IOStream

    memory = make_memory(session_id="typed")
    ana = ConversableAgent("ana", llm_config=False, human_input_mode="ALWAYS")
    bot, _ = assistant(sequence(["Welcome, teacher!", "Skiing near Oslo is great."]))
    memory.add_to_agent(ana)
    memory.add_to_agent(bot)
    typed = TypedInput(["I live in Oslo and I love skiing.", "exit"])
    with IOStream.set_default(typed):
        ana.initiate_chat(bot, message="I am a teacher at a primary school.")
    assert len(typed.prompts) == 2
    assert memory.flush(5)
    assert stored.transcript(uid, "typed") == [
        ("user", "I am a teacher at a primary school."),
        ("assistant", "Welcome, teacher!"),
        ("user", "I live in Oslo and I love skiing."),
        ("assistant", "Skiing near Oslo is great."),
    ]
    facts = " | ".join(stored.facts(uid))
    assert "teacher" in facts and "Oslo" in facts


def test_group_chat_roles_follow_the_member_who_spoke_not_the_relaying_manager(make_memory, stored, uid):
    from autogen import ConversableAgent, GroupChat, GroupChatManager
    from autogen.io.base import IOStream

    memory = make_memory(session_id="group")
    planner, _ = assistant(sequence(["Plan: a picnic by the river."]), name="planner")
    critic, _ = assistant(sequence(["The river is cold in March, I am a cautious critic."]), name="critic")
    ana = ConversableAgent("ana", llm_config=False, human_input_mode="ALWAYS")
    group = GroupChat(
        agents=[ana, planner, critic], messages=[], max_round=3, speaker_selection_method="round_robin"
    )
    manager = GroupChatManager(group, llm_config=False)
    for agent in (ana, planner, critic):
        memory.add_to_agent(agent)
    with IOStream.set_default(TypedInput(["exit"])):
        ana.initiate_chat(manager, message="I have a dog and I want a weekend outing with her.")
    assert memory.flush(5)
    assert stored.transcript(uid, "group") == [
        ("user", "I have a dog and I want a weekend outing with her."),
        ("assistant", "Plan: a picnic by the river."),
        ("assistant", "The river is cold in March, I am a cautious critic."),
    ]
    facts = " | ".join(stored.facts(uid))
    assert "dog" in facts and "critic" not in facts
